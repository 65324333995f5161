package org.phalanx.recoverylog.dump.ddl;

import java.util.IdentityHashMap;
import java.util.Map;
import org.apache.ddlutils.model.ForeignKey;

/**
 * ON DELETE / ON UPDATE actions of foreign keys, which DdlUtils 1.0's model and XML cannot hold.
 * Losing them would make a restored replica diverge the first time a replayed DELETE cascades on
 * the others, so the portable dump records them beside the schema and our builders print them
 * after the key's REFERENCES clause.
 */
public final class ForeignKeyRules {
    /** A builder that prints the rules given to it. */
    public interface Aware {
        ForeignKeyRules foreignKeyRules();
    }

    private final Map<ForeignKey, String> clauses = new IdentityHashMap<>(); // ForeignKey hashes by content
    private String pending;

    /** Sets the actions of a key: each one of CASCADE, SET NULL, SET DEFAULT, RESTRICT, NO ACTION (or null). */
    public void put(ForeignKey key, String onDelete, String onUpdate) {
        StringBuilder b = new StringBuilder();
        if (onDelete != null && !onDelete.equals("NO ACTION")) {
            b.append(" ON DELETE ").append(onDelete);
        }
        if (onUpdate != null && !onUpdate.equals("NO ACTION")) {
            b.append(" ON UPDATE ").append(onUpdate);
        }
        if (b.length() > 0) {
            clauses.put(key, b.toString());
        }
    }

    public void clear() {
        clauses.clear();
        pending = null;
    }

    /** Called after the builder wrote a key's referenced columns: the next ")" closes that clause. */
    void referencesWritten(ForeignKey key) {
        pending = clauses.get(key);
    }

    /** What to print instead of {@code text}: the closing parenthesis gets the pending actions. */
    String beforePrint(String text) {
        if (pending != null && ")".equals(text)) {
            String rules = pending;
            pending = null;
            return ")" + rules;
        }
        return text;
    }

    /** The JDBC {@code importedKey*} rule code as SQL. */
    public static String sql(int importedKeyRule) {
        return switch (importedKeyRule) {
            case java.sql.DatabaseMetaData.importedKeyCascade -> "CASCADE";
            case java.sql.DatabaseMetaData.importedKeyRestrict -> "RESTRICT";
            case java.sql.DatabaseMetaData.importedKeySetNull -> "SET NULL";
            case java.sql.DatabaseMetaData.importedKeySetDefault -> "SET DEFAULT";
            default -> "NO ACTION";
        };
    }
}
