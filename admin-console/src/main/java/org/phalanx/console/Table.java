package org.phalanx.console;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** A plain-text table: a header row, aligned columns, numbers right-aligned. */
final class Table {
    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    Table(String... header) {
        this.header = List.of(header);
    }

    Table(List<String> header) {
        this.header = List.copyOf(header);
    }

    Table row(Object... cells) {
        List<String> r = new ArrayList<>(cells.length);
        for (Object c : cells) {
            r.add(c == null ? "" : String.valueOf(c));
        }
        rows.add(r);
        return this;
    }

    int size() {
        return rows.size();
    }

    void print(PrintWriter out) {
        int[] width = new int[header.size()];
        boolean[] numeric = new boolean[header.size()];
        for (int i = 0; i < header.size(); i++) {
            width[i] = header.get(i).length();
            numeric[i] = !rows.isEmpty();
        }
        for (List<String> r : rows) {
            for (int i = 0; i < width.length && i < r.size(); i++) {
                width[i] = Math.max(width[i], r.get(i).length());
                numeric[i] &= r.get(i).matches("-?[0-9][0-9.,]*%?|");
            }
        }
        line(out, header, width, new boolean[width.length]);
        for (List<String> r : rows) {
            line(out, r, width, numeric);
        }
        out.flush();
    }

    private static void line(PrintWriter out, List<String> cells, int[] width, boolean[] right) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < width.length; i++) {
            String c = i < cells.size() ? cells.get(i) : "";
            String pad = " ".repeat(width[i] - c.length());
            b.append(right[i] ? pad + c : c + (i == width.length - 1 ? "" : pad));
            if (i < width.length - 1) {
                b.append("  ");
            }
        }
        out.println(b.toString().stripTrailing());
    }
}
