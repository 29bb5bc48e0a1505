/** Where the Duplicates screen lives; its photos open at `/duplicates/photos/<id>` (viewer-route.ts). */
export const DUPLICATES_PATH = '/duplicates';
