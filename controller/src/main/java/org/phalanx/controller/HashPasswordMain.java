package org.phalanx.controller;

import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import org.phalanx.controller.config.PasswordHash;

/**
 * {@code bin/phalanx hash-password}: reads a password (without echo on a terminal, else the first
 * line of standard input) and prints its salted hash for a virtual user's {@code passwordHash}.
 */
public final class HashPasswordMain {
    private HashPasswordMain() {
    }

    public static void main(String[] args) throws IOException {
        char[] password;
        Console console = System.console();
        if (console != null) {
            password = console.readPassword("password: ");
            char[] again = console.readPassword("again: ");
            if (password == null || again == null || !java.util.Arrays.equals(password, again)) {
                System.err.println("phalanx: the passwords differ");
                System.exit(2);
            }
        } else {
            String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            password = line == null ? null : line.toCharArray();
        }
        if (password == null || password.length == 0) {
            System.err.println("phalanx: no password given");
            System.exit(2);
        }
        System.out.println(PasswordHash.create(password));
    }
}
