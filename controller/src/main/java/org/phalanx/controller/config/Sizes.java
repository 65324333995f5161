package org.phalanx.controller.config;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sizes as written in configuration files: a whole number of bytes, or a whole number and a
 * binary unit, e.g. 65536, 512KB, 64MB, 1GB (KB = 1024 bytes, MB = 1024 KB, GB = 1024 MB).
 */
public final class Sizes {
    private static final Pattern FORM = Pattern.compile("(\\d+)(KB|MB|GB)?");

    private Sizes() {
    }

    /** @return the size in bytes; @throws IllegalArgumentException with a sentence fit for the user */
    public static long parse(String text) {
        Matcher m = FORM.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a size (write e.g. 512KB, 64MB, 1GB or a"
                    + " number of bytes)");
        }
        int shift = m.group(2) == null ? 0 : switch (m.group(2)) {
            case "KB" -> 10;
            case "MB" -> 20;
            default -> 30;
        };
        try {
            long amount = Long.parseLong(m.group(1));
            if (amount > Long.MAX_VALUE >> shift) {
                throw new NumberFormatException();
            }
            return amount << shift;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("size '" + text.trim() + "' is too large");
        }
    }
}
