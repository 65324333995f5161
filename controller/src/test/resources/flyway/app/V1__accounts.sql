CREATE TABLE account (id INTEGER PRIMARY KEY, owner VARCHAR(40) NOT NULL, balance INTEGER NOT NULL);
CREATE INDEX account_owner ON account (owner);
