ALTER TABLE account ADD COLUMN note VARCHAR(20);
UPDATE account SET note = 'seed';
