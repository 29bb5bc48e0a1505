/** The users feature's public surface: what other features use of it (see eslint.config.js). */
export { UsersStore, type UserRow } from './users.store.ts';
export { DisplayName, NewPassword, UserSchema, Username, checkAvatar, toUser, type User } from './users.view.ts';
export { MembersStore, MemberSchema, initialsOf, type Member } from './members.ts';
