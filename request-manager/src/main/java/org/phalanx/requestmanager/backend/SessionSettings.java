package org.phalanx.requestmanager.backend;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Base64;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import org.phalanx.engine.Engine;

/**
 * A client session's own parameters ({@code SET search_path}, {@code SET time_zone}, ...): for
 * each parameter, the statement that set it, in the order they were set. Immutable: a task
 * queued on a backend keeps the settings of the moment it was sent. They are applied to a pooled
 * connection when it is taken for the session and reset when it goes back
 * ({@link Backend#connectionFor(String, SessionSettings)}), so no other session sees them.
 */
public final class SessionSettings {
    public static final SessionSettings NONE = new SessionSettings(Map.of(), null);

    private final Map<String, String> byName;
    /**
     * The session's own connection, where its temporary tables live, or null: on that backend the
     * session's work runs there instead of on pooled connections. Not a parameter: it is neither
     * logged nor compared.
     */
    private final SessionHome home;

    private SessionSettings(Map<String, String> byName, SessionHome home) {
        this.byName = byName;
        this.home = home;
    }

    /** Whether no parameter is set (the session may still have a {@link #home()}). */
    public boolean isEmpty() {
        return byName.isEmpty();
    }

    public SessionHome home() {
        return home;
    }

    /** These parameters, for work on {@code home}'s backend run on it (null: on pooled connections). */
    public SessionSettings at(SessionHome home) {
        return home == this.home ? this : new SessionSettings(byName, home);
    }

    /** These settings with {@code name} set by {@code sql} (last: it may depend on an earlier one, as a role). */
    public SessionSettings with(String name, String sql) {
        return with(name, sql, null);
    }

    /**
     * These settings with {@code name} set by {@code sql} on backends speaking {@code onlyOn}'s SQL
     * only (null: on every backend) — a parameter of a mixed virtual database's declared dialect,
     * which the other engines do not have.
     */
    public SessionSettings with(String name, String sql, Engine onlyOn) {
        Map<String, String> m = new LinkedHashMap<>(byName);
        m.keySet().removeIf(key -> name(key).equals(name));
        m.put(onlyOn == null ? name : name + ENGINE_SEPARATOR + onlyOn.name(), sql);
        return new SessionSettings(m, home);
    }

    /** These settings without the parameters named. */
    public SessionSettings without(Collection<String> names) {
        Map<String, String> m = new LinkedHashMap<>(byName);
        m.keySet().removeIf(key -> names.contains(name(key)));
        return m.size() == byName.size() ? this : new SessionSettings(m, home);
    }

    /** Only the parameters named. */
    public SessionSettings only(Collection<String> names) {
        Map<String, String> m = new LinkedHashMap<>(byName);
        m.keySet().removeIf(key -> !names.contains(name(key)));
        return new SessionSettings(m, home);
    }

    /** The statement that set {@code name}, or null if it is not set. */
    public String statement(String name) {
        for (Map.Entry<String, String> e : byName.entrySet()) {
            if (name(e.getKey()).equals(name)) {
                return e.getValue();
            }
        }
        return null;
    }

    /** Between a parameter's name and the engine it is set on only, in the keys of {@link #byName}. */
    private static final char ENGINE_SEPARATOR = '|';

    private static String name(String key) {
        int split = key.indexOf(ENGINE_SEPARATOR);
        return split < 0 ? key : key.substring(0, split);
    }

    /** Whether the parameter of this key is set on a backend speaking {@code dialect}'s SQL. */
    private static boolean appliesTo(String key, Engine dialect) {
        int split = key.indexOf(ENGINE_SEPARATOR);
        return split < 0 || key.substring(split + 1).equals(dialect.name());
    }

    /** Runs the setting statements on {@code c}, a connection of a backend speaking {@code dialect}'s SQL. */
    void apply(Connection c, Engine dialect) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (Map.Entry<String, String> e : byName.entrySet()) {
                if (appliesTo(e.getKey(), dialect)) {
                    s.execute(e.getValue());
                }
            }
        }
    }

    /**
     * Puts back the defaults of every parameter set here, on a connection of {@code engine} going
     * back to the pool: outside a transaction, since PostgreSQL would undo the reset with it.
     */
    void resetForPool(Connection c, Engine engine) throws SQLException {
        if (!c.getAutoCommit()) {
            c.rollback(); // what closing it would do to anything left uncommitted
            c.setAutoCommit(true);
        }
        reset(c, engine);
    }

    private void reset(Connection c, Engine engine) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String key : byName.keySet()) {
                if (appliesTo(key, engine)) {
                    s.execute(resetStatement(name(key), engine));
                }
            }
        }
    }

    /**
     * Replaces these settings by {@code next} on a connection that has these applied (a
     * transaction's branch when its session sets a parameter).
     */
    public void switchTo(SessionSettings next, Connection c, Engine engine) throws SQLException {
        if (engine != Engine.SQLITE) {
            reset(c, engine); // SQLite's pragmas are only ever assigned again (no RESET)
        }
        next.apply(c, engine);
    }

    /**
     * These settings as text for the recovery log ({@code LoggedSettings}): each parameter's name
     * and statement, Base64 so that no statement text can end the comment that carries them.
     */
    public String encode() {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, String> e : byName.entrySet()) {
            if (b.length() > 0) {
                b.append('\0');
            }
            b.append(e.getKey()).append('\1').append(e.getValue());
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** The settings {@link #encode} wrote. */
    public static SessionSettings decode(String text) {
        String plain = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8);
        Map<String, String> m = new LinkedHashMap<>();
        for (String pair : plain.split("\0")) {
            int split = pair.indexOf('\1');
            if (split < 0) {
                throw new IllegalArgumentException("malformed session settings in the recovery log: " + plain);
            }
            m.put(pair.substring(0, split), pair.substring(split + 1));
        }
        return new SessionSettings(m, null);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SessionSettings other && byName.equals(other.byName);
    }

    @Override
    public int hashCode() {
        return byName.hashCode();
    }

    /** How an engine puts a parameter back to its default for the connection. */
    static String resetStatement(String name, Engine engine) {
        if (name.startsWith("@")) {
            return "SET " + name + " = NULL"; // a MariaDB user variable: unset is NULL
        }
        if (engine == Engine.MARIADB) {
            // the connector opens every connection with utf8mb4
            return name.equals("names") ? "SET NAMES utf8mb4" : "SET SESSION " + name + " = DEFAULT";
        }
        return switch (name) { // PostgreSQL, and another controller (which reads RESET as a session command)
            case "role" -> "RESET ROLE";
            case "session_authorization" -> "RESET SESSION AUTHORIZATION";
            case "timezone" -> "RESET TIME ZONE";
            case "names" -> "RESET client_encoding";
            default -> "RESET " + name;
        };
    }
}
