package org.phalanx.testkit.jdbc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Service time per statement class, classes chosen by SQL pattern. One line per class, the
 * first matching line wins:
 *
 * <pre>
 * # class        service   pattern (Java regex, case-insensitive, searched anywhere in the SQL)
 * best-sellers   100ms     GROUP\s+BY\s+i_id
 * write          0.1ms     ^\s*(insert|update|delete)
 * commit         0.2ms     &#64;commit
 * read           1ms       .
 * </pre>
 *
 * {@code @commit} and {@code @rollback} stand for {@code Connection.commit()} and
 * {@code rollback()}. A statement no line matches is class {@code other} with no service time.
 */
public final class CostModel {
    public static final String COMMIT = "@commit";
    public static final String ROLLBACK = "@rollback";

    /** One statement class: its name, service time and the pattern that selects it. */
    public record StatementClass(String name, long serviceNanos, String pattern) {
    }

    private record Rule(StatementClass statementClass, Pattern regex) {
    }

    private static final StatementClass OTHER = new StatementClass("other", 0, "");
    private static final Map<Path, CostModel> LOADED = new ConcurrentHashMap<>();

    private final List<Rule> rules;
    /** Classification is by SQL text; applications reuse a handful of texts, so this stays small. */
    private final Map<String, StatementClass> bySql = new ConcurrentHashMap<>();

    private CostModel(List<Rule> rules) {
        this.rules = List.copyOf(rules);
    }

    /** Builds a model in code; {@link #write(Path)} stores it for the controller process. */
    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder {
        private final List<Rule> rules = new ArrayList<>();

        public Builder add(String name, Duration service, String pattern) {
            StatementClass c = new StatementClass(name, service.toNanos(), pattern);
            rules.add(new Rule(c, compile(pattern)));
            return this;
        }

        public CostModel build() {
            return new CostModel(rules);
        }
    }

    /** The model with no service time at all: every statement only holds a slot while it really runs. */
    public static CostModel zero() {
        return builder().add("any", Duration.ZERO, ".").add("commit", Duration.ZERO, COMMIT)
                .add("rollback", Duration.ZERO, ROLLBACK).build();
    }

    /** The same model with every service time multiplied by {@code factor} (quick smoke runs use 0.1). */
    public CostModel scaled(double factor) {
        Builder b = builder();
        for (Rule r : rules) {
            b.add(r.statementClass.name(), Duration.ofNanos(Math.round(r.statementClass.serviceNanos() * factor)),
                    r.statementClass.pattern());
        }
        return b.build();
    }

    public List<StatementClass> classes() {
        List<StatementClass> list = new ArrayList<>();
        for (Rule r : rules) {
            list.add(r.statementClass);
        }
        return list;
    }

    public StatementClass classify(String sql) {
        StatementClass c = bySql.get(sql);
        if (c == null) {
            c = OTHER;
            for (Rule r : rules) {
                if (r.regex.matcher(sql).find()) {
                    c = r.statementClass;
                    break;
                }
            }
            if (bySql.size() < 10_000) {
                bySql.put(sql, c);
            }
        }
        return c;
    }

    /** Loads a model file once per JVM (every backend of a cluster usually shares one). */
    public static CostModel load(Path file) {
        return LOADED.computeIfAbsent(file.toAbsolutePath().normalize(), CostModel::parse);
    }

    private static CostModel parse(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read cost model " + file + ": " + e.getMessage(), e);
        }
        Builder b = builder();
        int n = 0;
        for (String line : lines) {
            n++;
            String s = line.strip();
            if (s.isEmpty() || s.startsWith("#")) {
                continue;
            }
            String[] parts = s.split("\\s+", 3);
            if (parts.length < 3) {
                throw new IllegalArgumentException(file + ":" + n + ": expected 'class service pattern'");
            }
            b.add(parts[0], parseDuration(parts[1], file + ":" + n), parts[2]);
        }
        return b.build();
    }

    public void write(Path file) throws IOException {
        StringBuilder sb = new StringBuilder();
        sb.append("# Emulated service time per statement class; the first matching line wins.\n");
        sb.append("# class  service  pattern (Java regex, case-insensitive, searched in the SQL text)\n");
        for (Rule r : rules) {
            sb.append(r.statementClass.name()).append(' ').append(formatDuration(r.statementClass.serviceNanos()))
                    .append(' ').append(r.statementClass.pattern()).append('\n');
        }
        Files.writeString(file, sb.toString(), StandardCharsets.UTF_8);
    }

    static Duration parseDuration(String text, String where) {
        String t = text.toLowerCase(Locale.ROOT);
        try {
            if (t.equals("0")) {
                return Duration.ZERO;
            }
            if (t.endsWith("us")) {
                return Duration.ofNanos(Math.round(Double.parseDouble(t.substring(0, t.length() - 2)) * 1e3));
            }
            if (t.endsWith("ms")) {
                return Duration.ofNanos(Math.round(Double.parseDouble(t.substring(0, t.length() - 2)) * 1e6));
            }
            if (t.endsWith("s")) {
                return Duration.ofNanos(Math.round(Double.parseDouble(t.substring(0, t.length() - 1)) * 1e9));
            }
        } catch (NumberFormatException e) {
            // fall through to the error below
        }
        throw new IllegalArgumentException(where + ": bad duration '" + text + "' (use 0, 250us, 1.5ms, 2s)");
    }

    /** Microsecond text a human reads and {@link #parseDuration} reads back. */
    public static String formatDuration(long nanos) {
        if (nanos == 0) {
            return "0";
        }
        if (nanos % 1_000_000 == 0) {
            return nanos / 1_000_000 + "ms";
        }
        return (nanos / 1000.0) + "us";
    }

    private static Pattern compile(String pattern) {
        if (pattern.equals(COMMIT) || pattern.equals(ROLLBACK)) {
            return Pattern.compile(Pattern.quote(pattern));
        }
        return Pattern.compile(pattern, Pattern.CASE_INSENSITIVE);
    }
}
