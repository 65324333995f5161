package org.phalanx.controller.config;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * A virtual user's password kept as a salted PBKDF2-HMAC-SHA256 hash, so the configuration file
 * does not hold the password itself: {@code pbkdf2-sha256:<iterations>:<salt>:<hash>}, salt and
 * hash in Base64. {@code bin/phalanx hash-password} makes one.
 */
public final class PasswordHash {
    static final String PREFIX = "pbkdf2-sha256:";
    /** Enough to make guessing from a stolen file slow, cheap enough for a connection pool's logins. */
    public static final int ITERATIONS = 120_000;
    private static final int SALT_BYTES = 16;
    private static final int HASH_BITS = 256;

    private final int iterations;
    private final byte[] salt;
    private final byte[] hash;

    private PasswordHash(int iterations, byte[] salt, byte[] hash) {
        this.iterations = iterations;
        this.salt = salt;
        this.hash = hash;
    }

    /** A new hash of {@code password}, with a random salt. */
    public static String create(char[] password) {
        byte[] salt = new byte[SALT_BYTES];
        new SecureRandom().nextBytes(salt);
        Base64.Encoder b64 = Base64.getEncoder();
        return PREFIX + ITERATIONS + ":" + b64.encodeToString(salt) + ":" + b64.encodeToString(derive(password, salt, ITERATIONS));
    }

    /** The hash written {@code text}; IllegalArgumentException saying what is wrong with it. */
    public static PasswordHash parse(String text) {
        String[] parts = text.trim().split(":");
        if (parts.length != 4 || !(parts[0] + ":").equals(PREFIX)) {
            throw new IllegalArgumentException("a password hash reads " + PREFIX + "<iterations>:<salt>:<hash>"
                    + " (make one with bin/phalanx hash-password)");
        }
        try {
            int iterations = Integer.parseInt(parts[1]);
            if (iterations < 1) {
                throw new IllegalArgumentException("a password hash needs a positive number of iterations");
            }
            return new PasswordHash(iterations, Base64.getDecoder().decode(parts[2]), Base64.getDecoder().decode(parts[3]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("the iterations of a password hash are not a number: " + parts[1]);
        }
    }

    /** Whether {@code password} is the one hashed, in time that does not depend on where they differ. */
    public boolean matches(String password) {
        return MessageDigest.isEqual(hash, derive((password == null ? "" : password).toCharArray(), salt, iterations));
    }

    private static byte[] derive(char[] password, byte[] salt, int iterations) {
        try {
            PBEKeySpec spec = new PBEKeySpec(password, salt, iterations, HASH_BITS);
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java runtime has PBKDF2WithHmacSHA256", e);
        }
    }
}
