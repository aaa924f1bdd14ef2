-- 0026: Firebase accounts bound to users. An owner who rebuilds the Omi
-- app against this box signs in to it with Firebase; the app's ID token
-- names a Firebase uid, and a row here says which user it acts for. A
-- Firebase uid acts for at most one user; a user may have several (two
-- phones signed in two ways). Nothing is bound until the owner binds it.
CREATE TABLE firebase_accounts (
    firebase_uid TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at   TEXT NOT NULL
) STRICT;
CREATE INDEX firebase_accounts_user ON firebase_accounts(user_id);
