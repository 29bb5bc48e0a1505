/** Where People lives; a person's page is `/people/<id>`, their photos open at `/people/<id>/photos/<asset>`. */
export const PEOPLE_PATH = '/people';

export const personPath = (personId: number) => `${PEOPLE_PATH}/${personId}`;
