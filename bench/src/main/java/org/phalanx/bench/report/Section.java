package org.phalanx.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * One scenario's part of RESULTS.md, built as the scenario runs and stored in
 * {@code results/<scenario>/}: {@code section.md} (text, tables, embedded charts), the CSV files
 * and PNG charts it links, and {@code targets.csv} (one line per target, met or not).
 */
public final class Section {
    private final String id;
    private final String title;
    private final Path dir;
    private final StringBuilder md = new StringBuilder();
    private final List<Target> targets = new ArrayList<>();

    /** A target with its measured value. {@code profile} names a file with the hot spots if it was missed. */
    public record Target(String scenario, String name, double value, String op, double threshold, String unit,
                         boolean met, String profile) {
        public String valueText() {
            return Section.num(value) + unit;
        }

        public String thresholdText() {
            return op + " " + Section.num(threshold) + unit;
        }
    }

    public Section(String id, String title, Path dir) throws IOException {
        this.id = id;
        this.title = title;
        this.dir = dir;
        Files.createDirectories(dir);
        try (var old = Files.list(dir)) {
            for (Path p : old.toList()) {
                if (Files.isRegularFile(p)) {
                    Files.delete(p);
                }
            }
        }
    }

    public String id() {
        return id;
    }

    public Path dir() {
        return dir;
    }

    public List<Target> targets() {
        return List.copyOf(targets);
    }

    public Section text(String markdown) {
        md.append(markdown.strip()).append("\n\n");
        return this;
    }

    public Section table(List<String> header, List<List<String>> rows) {
        md.append('|');
        for (String h : header) {
            md.append(' ').append(h).append(" |");
        }
        md.append("\n|");
        for (int i = 0; i < header.size(); i++) {
            md.append(i == 0 ? "---|" : "---:|");
        }
        md.append('\n');
        for (List<String> row : rows) {
            md.append('|');
            for (String cell : row) {
                md.append(' ').append(cell).append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
        return this;
    }

    /** Writes a CSV file next to the section and links it. */
    public Section csv(String file, List<String> header, List<List<?>> rows) throws IOException {
        StringBuilder sb = new StringBuilder(String.join(",", header)).append('\n');
        for (List<?> row : rows) {
            for (int i = 0; i < row.size(); i++) {
                if (i > 0) {
                    sb.append(',');
                }
                Object v = row.get(i);
                String s = v instanceof Double d ? (Double.isNaN(d) ? "" : String.format(Locale.ROOT, "%.3f", d))
                        : String.valueOf(v);
                sb.append(s.contains(",") || s.contains("\"") ? '"' + s.replace("\"", "\"\"") + '"' : s);
            }
            sb.append('\n');
        }
        Files.writeString(dir.resolve(file), sb.toString(), StandardCharsets.UTF_8);
        md.append("Data: [").append(file).append("](").append(link(file)).append(")\n\n");
        return this;
    }

    /** Saves a chart as PNG next to the section and embeds it. */
    public Section chart(String file, Chart<?, ?> chart) throws IOException {
        BitmapEncoder.saveBitmap(chart, dir.resolve(file).toString(), BitmapEncoder.BitmapFormat.PNG);
        md.append("![").append(chart.getTitle()).append("](").append(link(file)).append(")\n\n");
        return this;
    }

    /**
     * Records a target: {@code value op threshold} where op is "≥" or "≤". Returns whether it is met.
     */
    public boolean target(String name, double value, String op, double threshold, String unit) {
        boolean met = !Double.isNaN(value) && (op.equals("≥") ? value >= threshold : value <= threshold);
        targets.add(new Target(id, name, value, op, threshold, unit, met, ""));
        md.append("**Target — ").append(name).append(":** ").append(num(value)).append(unit).append(' ')
                .append(op).append(' ').append(num(threshold)).append(unit).append(" → **")
                .append(met ? "met" : "NOT MET").append("**\n\n");
        return met;
    }

    /** Attaches hot spots (markdown) to the last missed target called {@code name}. */
    public void profile(String name, String markdown) throws IOException {
        String file = "profile-" + slug(name) + ".md";
        Files.writeString(dir.resolve(file), markdown, StandardCharsets.UTF_8);
        for (int i = targets.size() - 1; i >= 0; i--) {
            Target t = targets.get(i);
            if (t.name().equals(name)) {
                targets.set(i, new Target(t.scenario(), t.name(), t.value(), t.op(), t.threshold(), t.unit(), t.met(), file));
                break;
            }
        }
        md.append("Profile of the controller for the missed target: [").append(file).append("](").append(link(file))
                .append(")\n\n");
    }

    /** Explanation of missed targets, shown under "Missed targets" in RESULTS.md. */
    public void analysis(String markdown) throws IOException {
        Files.writeString(dir.resolve("analysis.md"), markdown.strip() + "\n", StandardCharsets.UTF_8);
    }

    public void write() throws IOException {
        Files.writeString(dir.resolve("section.md"), "## " + title + "\n\n" + md, StandardCharsets.UTF_8);
        StringBuilder sb = new StringBuilder("scenario\ttarget\tvalue\top\tthreshold\tunit\tmet\tprofile\n");
        for (Target t : targets) {
            sb.append(t.scenario()).append('\t').append(t.name()).append('\t').append(t.value()).append('\t')
                    .append(t.op()).append('\t').append(t.threshold()).append('\t').append(t.unit()).append('\t')
                    .append(t.met()).append('\t').append(t.profile()).append('\n');
        }
        Files.writeString(dir.resolve("targets.tsv"), sb.toString(), StandardCharsets.UTF_8);
    }

    /** Reads a section's targets back (for the summary in RESULTS.md). */
    public static List<Target> readTargets(Path dir) throws IOException {
        Path f = dir.resolve("targets.tsv");
        List<Target> list = new ArrayList<>();
        if (!Files.exists(f)) {
            return list;
        }
        List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
        for (String line : lines.subList(1, lines.size())) {
            String[] p = line.split("\t", -1);
            list.add(new Target(p[0], p[1], Double.parseDouble(p[2]), p[3], Double.parseDouble(p[4]), p[5],
                    Boolean.parseBoolean(p[6]), p[7]));
        }
        return list;
    }

    /** Link from bench/RESULTS.md to a file of this section. */
    String link(String file) {
        return "results/" + id + "/" + file;
    }

    static String slug(String s) {
        return s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-|-$)", "");
    }

    /** A number as tables show it: three significant digits, no exponent. */
    public static String num(double v) {
        if (Double.isNaN(v)) {
            return "–";
        }
        double a = Math.abs(v);
        if (a >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (a >= 1) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%.3f", v);
    }
}
