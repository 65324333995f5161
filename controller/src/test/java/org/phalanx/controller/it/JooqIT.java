package org.phalanx.controller.it;

import static org.jooq.impl.DSL.constraint;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.table;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.phalanx.controller.it.EngineCluster.Kind;

/**
 * Real jOOQ (its DSL, in the engine's dialect, as an application writes it) through a virtual
 * database of two SQLite, PostgreSQL or MariaDB backends with a recovery log (on SQLite, jOOQ reads
 * the key an insert returns with {@code last_insert_rowid()}, the session's): DDL, an insert
 * returning its generated key, a multi-row insert, an upsert, a transaction that locks a row
 * ({@code FOR UPDATE}) and updates it, a delete — and the same steps on one database of the engine
 * directly. Every answer jOOQ got, and the table afterwards, must be what one database gives, and
 * the replicas identical.
 */
class JooqIT {
    private static final Table<Record> ITEM = table(name("item"));
    private static final Field<Integer> ID = field(name("id"), SQLDataType.INTEGER);
    private static final Field<String> NAME = field(name("name"), SQLDataType.VARCHAR(50));
    private static final Field<Integer> QTY = field(name("qty"), SQLDataType.INTEGER);

    @TempDir
    Path dir;
    @AutoClose
    private EngineCluster cluster;
    @AutoClose
    private DirectDatabase direct;

    @ParameterizedTest
    @EnumSource(Kind.class)
    void theDslDoesWhatItDoesOnOneDatabase(Kind kind) throws Exception {
        SQLDialect dialect = switch (kind) {
            case SQLITE -> SQLDialect.SQLITE;
            case POSTGRESQL -> SQLDialect.POSTGRES;
            case MARIADB -> SQLDialect.MARIADB;
        };
        direct = new DirectDatabase(dir, kind, "phalanx_jooqdirect");
        List<String> expected = run(direct, dialect);

        cluster = new EngineCluster(dir, kind, 2, "phalanx_jooq", "", "", "<recoveryLog dir=\"log\"/>");
        assertEquals(expected, run(cluster::connect, dialect), "what jOOQ got, as from one database");
        cluster.assertAllEnabled();
        cluster.stopController();
        cluster.assertIdentical("item", "id");
    }

    /** The steps; what jOOQ answered at each, and the table at the end. */
    private static List<String> run(ConnectionSource source, SQLDialect dialect) throws Exception {
        List<String> seen = new java.util.ArrayList<>();
        try (Connection c = source.connect()) {
            DSLContext dsl = DSL.using(c, dialect);
            dsl.createTable(ITEM)
                    .column(ID, SQLDataType.INTEGER.identity(true))
                    .column(NAME, SQLDataType.VARCHAR(50).nullable(false))
                    .column(QTY, SQLDataType.INTEGER.nullable(false))
                    .constraints(constraint("pk_item").primaryKey(ID), constraint("uk_item_name").unique(NAME))
                    .execute();
            Record first = dsl.insertInto(ITEM, NAME, QTY).values("apple", 1).returningResult(ID).fetchOne();
            seen.add("returned " + first.get(ID));
            seen.add("inserted " + dsl.insertInto(ITEM, NAME, QTY).values("pear", 2).values("plum", 3).execute());
            seen.add("upserted " + dsl.insertInto(ITEM, NAME, QTY).values("apple", 10)
                    .onConflict(NAME).doUpdate().set(QTY, field(name("item", "qty"), SQLDataType.INTEGER).plus(10)).execute());
            seen.add("transaction " + dsl.transactionResult(tx -> {
                DSLContext t = tx.dsl();
                var read = t.select(QTY).from(ITEM).where(NAME.eq("pear"));
                // SQLite has no FOR UPDATE (its writer holds the whole file)
                Integer qty = (dialect == SQLDialect.SQLITE ? read : read.forUpdate()).fetchOne(QTY);
                return t.update(ITEM).set(QTY, qty * 7).where(NAME.eq("pear")).execute();
            }));
            seen.add("deleted " + dsl.deleteFrom(ITEM).where(QTY.lt(5)).execute());
            seen.add("count " + dsl.fetchCount(ITEM));
            dsl.selectFrom(ITEM).orderBy(ID).fetch().forEach(r -> seen.add(r.get(ID) + " " + r.get(NAME) + " " + r.get(QTY)));
        }
        return seen;
    }
}
