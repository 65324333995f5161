-- Portable SQL that runs the same on the three replicas of the "mixed" virtual database.
CREATE TABLE customers (
  id      BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email   VARCHAR(80) NOT NULL UNIQUE,
  vip     BOOLEAN DEFAULT FALSE,
  balance DECIMAL(10,2),
  since   TIMESTAMP
);
INSERT INTO customers (email, vip, balance, since) VALUES ('ada@example.org', TRUE, 120.5, CURRENT_TIMESTAMP);
INSERT INTO customers (email, balance, since) VALUES ('bob@example.org', 7, CURRENT_TIMESTAMP);
SELECT id, email, vip, balance FROM customers ORDER BY id;
SELECT COUNT(*) AS n, SUM(balance) AS total FROM customers;
