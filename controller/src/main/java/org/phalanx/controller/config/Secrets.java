package org.phalanx.controller.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Passwords kept out of the configuration files: an attribute written {@code ${env:NAME}} takes
 * that environment variable's value, and {@code passwordFile="..."} (beside {@code password})
 * the first line of that file, a relative path being resolved against the configuration file's
 * folder. A variable not set or a file not readable is a configuration error at its place.
 */
final class Secrets {
    private static final Pattern ENV = Pattern.compile("\\$\\{env:([A-Za-z_][A-Za-z0-9_]*)}");

    private final Path folder;
    private final ConfigProblems problems;
    private final Function<String, String> environment;

    Secrets(Path folder, ConfigProblems problems) {
        this(folder, problems, System::getenv);
    }

    Secrets(Path folder, ConfigProblems problems, Function<String, String> environment) {
        this.folder = folder;
        this.problems = problems;
        this.environment = environment;
    }

    /** The secret of {@code attribute} (e.g. "password") of {@code e}, or null if neither form is given. */
    String of(XmlElement e, String attribute) {
        String fileAttribute = attribute + "File";
        String value = e.attribute(attribute, null);
        String file = e.attribute(fileAttribute, null);
        if (value != null && file != null) {
            problems.add(e.location(fileAttribute), "give " + attribute + " or " + fileAttribute + ", not both");
            return null;
        }
        if (file != null) {
            return fromFile(e, fileAttribute, file.trim());
        }
        if (value == null) {
            return null;
        }
        Matcher m = ENV.matcher(value.trim());
        if (!m.matches()) {
            return value;
        }
        String set = environment.apply(m.group(1));
        if (set == null) {
            problems.add(e.location(attribute), "environment variable " + m.group(1) + " is not set");
        }
        return set;
    }

    /** Whether the element gives the secret in either form. */
    static boolean given(XmlElement e, String attribute) {
        Map<String, String> a = e.attributes();
        return a.containsKey(attribute) || a.containsKey(attribute + "File");
    }

    private String fromFile(XmlElement e, String fileAttribute, String name) {
        Path path = folder.resolve(name);
        try {
            String content = Files.readString(path, StandardCharsets.UTF_8);
            int end = content.indexOf('\n');
            return (end < 0 ? content : content.substring(0, end)).replace("\r", "");
        } catch (IOException | RuntimeException ex) {
            problems.add(e.location(fileAttribute), "cannot read " + fileAttribute + " " + path + ": " + ex.getMessage());
            return null;
        }
    }
}
