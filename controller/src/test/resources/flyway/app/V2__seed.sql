INSERT INTO account (id, owner, balance) VALUES (1, 'ann', 100);
INSERT INTO account (id, owner, balance) VALUES (2, 'bob', 50);
