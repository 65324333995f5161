package org.phalanx.testkit.jdbc;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * A {@link FaultyDriver} URL: {@code jdbc:faulty:NAME:REAL_URL}, or with options
 * {@code jdbc:faulty:name=NAME;slots=K;costs=FILE;init=FILE:REAL_URL}. The options end at the
 * first ':' after the prefix; everything after it is the real driver's URL.
 *
 * @param slots 0 when the backend does not emulate capacity ({@code slots} and {@code costs} absent)
 * @param costs the {@link CostModel} file, or null (no service time)
 * @param init a script run once with {@code RUNSCRIPT} before the first connection (in-memory H2), or null
 */
record FaultyUrl(String name, int slots, Path costs, Path init, String realUrl) {
    static final String PREFIX = "jdbc:faulty:";

    static boolean accepts(String url) {
        return url != null && url.startsWith(PREFIX);
    }

    boolean emulatesCapacity() {
        return slots > 0;
    }

    static FaultyUrl parse(String url) throws SQLException {
        String rest = url.substring(PREFIX.length());
        int colon = rest.indexOf(':');
        if (colon <= 0) {
            throw bad(url, "expected " + PREFIX + "NAME:REAL_URL or " + PREFIX + "name=NAME;slots=K;...:REAL_URL");
        }
        String head = rest.substring(0, colon);
        String realUrl = rest.substring(colon + 1);
        if (!head.contains("=")) {
            return new FaultyUrl(head, 0, null, null, realUrl);
        }
        Map<String, String> options = new HashMap<>();
        for (String kv : head.split(";")) {
            int eq = kv.indexOf('=');
            if (eq > 0) {
                options.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
            }
        }
        int slots = 0;
        if (options.containsKey("slots") || options.containsKey("costs")) {
            try {
                slots = Integer.parseInt(options.getOrDefault("slots", "1"));
            } catch (NumberFormatException e) {
                throw bad(url, "slots is not a number");
            }
            if (slots < 1) {
                throw bad(url, "slots must be at least 1");
            }
        }
        return new FaultyUrl(options.getOrDefault("name", realUrl), slots, path(options.get("costs")),
                path(options.get("init")), realUrl);
    }

    private static Path path(String option) {
        return option == null ? null : Path.of(option);
    }

    private static SQLException bad(String url, String why) {
        return new SQLException("bad faulty URL " + url + ": " + why, "08001");
    }

    /** The URL text, options in a fixed order (bare {@code NAME:} when there is no option). */
    @Override
    public String toString() {
        if (slots == 0 && init == null) {
            return PREFIX + name + ":" + realUrl;
        }
        return PREFIX + "name=" + name + (slots == 0 ? "" : ";slots=" + slots)
                + (costs == null ? "" : ";costs=" + costs.toAbsolutePath())
                + (init == null ? "" : ";init=" + init.toAbsolutePath()) + ":" + realUrl;
    }
}
