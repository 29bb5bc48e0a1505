import Database from 'better-sqlite3';
const db = new Database(':memory:');
console.log(db.prepare('select sqlite_version() v').get());
