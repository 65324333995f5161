package org.phalanx.controller.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.config.RewriteRule;
import org.phalanx.engine.Engine;

/**
 * Reads {@code <rewriting>}: each {@code <rewrite>} rule, checked (a regular expression that
 * compiles, a replacement whose group references exist, a known backend, an engine some backend
 * has), and gives every backend the rules that target it, in file order.
 */
final class RewriteRulesReader {
    /** $n in a replacement, not escaped as \\$. */
    private static final Pattern GROUP_REFERENCE = Pattern.compile("(?<!\\\\)\\$(\\d+)");

    private final ConfigProblems problems;

    RewriteRulesReader(ConfigProblems problems) {
        this.problems = problems;
    }

    /** The backends with their rules attached. */
    List<BackendConfig> attach(XmlElement rewriting, List<BackendConfig> backends) {
        List<RewriteRule> rules = new ArrayList<>();
        for (XmlElement e : rewriting.children("rewrite")) {
            RewriteRule rule = rule(e, backends);
            if (rule != null) {
                rules.add(rule);
            }
        }
        List<BackendConfig> out = new ArrayList<>(backends.size());
        for (BackendConfig b : backends) {
            Engine engine = Engine.ofUrl(b.url());
            List<RewriteRule> own = rules.stream().filter(r -> r.appliesTo(b.name(), engine)).toList();
            out.add(b.toBuilder().rewrites(own).build());
        }
        return out;
    }

    private RewriteRule rule(XmlElement e, List<BackendConfig> backends) {
        String pattern = e.required("pattern");
        String replacement = e.required("replacement");
        boolean exact = "exact".equals(e.attribute("match", "regex"));
        String backend = e.attribute("backend", null);
        Engine engine = null;
        String engineText = e.attribute("engine", null);
        if (engineText != null) {
            engine = Engine.valueOf(engineText.trim().toUpperCase(Locale.ROOT));
            Engine wanted = engine;
            if (backends.stream().noneMatch(b -> Engine.ofUrl(b.url()) == wanted)) {
                problems.add(e.location("engine"), "no backend of this virtual database is " + engineText.trim()
                        + ": the rule would never apply");
            }
        }
        if (backend != null && backends.stream().noneMatch(b -> b.name().equals(backend))) {
            problems.add(e.location("backend"), "rewrite rule names unknown backend '" + backend + "' (declared: "
                    + String.join(", ", backends.stream().map(BackendConfig::name).toList()) + ")");
            return null;
        }
        if (exact) {
            return RewriteRule.exact(pattern.strip(), replacement, engine, backend);
        }
        try {
            Pattern compiled = Pattern.compile(pattern);
            int groups = compiled.matcher("").groupCount();
            Matcher reference = GROUP_REFERENCE.matcher(replacement);
            while (reference.find()) {
                if (Integer.parseInt(reference.group(1)) > groups) {
                    throw new IllegalArgumentException("$" + reference.group(1) + " names a group the pattern does not have"
                            + " (it has " + groups + ")");
                }
            }
            if (replacement.endsWith("\\") && !replacement.endsWith("\\\\")) {
                throw new IllegalArgumentException("it ends with a lone backslash");
            }
            return new RewriteRule(compiled, replacement, false, engine, backend);
        } catch (PatternSyntaxException ex) {
            problems.add(e.location("pattern"), "invalid regular expression: " + ex.getDescription() + " near index "
                    + ex.getIndex());
        } catch (IllegalArgumentException | IndexOutOfBoundsException ex) {
            problems.add(e.location("replacement"), "invalid replacement for this pattern: " + ex.getMessage());
        }
        return null;
    }
}
