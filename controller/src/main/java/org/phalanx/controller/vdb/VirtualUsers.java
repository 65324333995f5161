package org.phalanx.controller.vdb;

import org.phalanx.controller.config.PasswordHash;
import org.phalanx.controller.config.VirtualUser;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The virtual users of one virtual database and their password check. Passwords are compared
 * as SHA-256 digests with {@link MessageDigest#isEqual}, so the time taken depends neither on
 * where the passwords differ nor on their lengths; a user kept as a hash ({@link PasswordHash}) is
 * checked by deriving the hash again. An unknown user is checked against a dummy of the slower kind
 * there is, so the answer time does not tell which user names exist.
 */
public final class VirtualUsers {
    private static final byte[] NO_SUCH_USER = sha256("\u0000no such user\u0000");

    private final Map<String, byte[]> digests = new HashMap<>();
    private final Map<String, PasswordHash> hashes = new HashMap<>();
    /** Checked for unknown users when some users are hashed, taking as long as theirs. */
    private final PasswordHash dummyHash;

    public VirtualUsers(List<VirtualUser> users) {
        for (VirtualUser u : users) {
            if (u.passwordHash() != null) {
                hashes.put(u.name(), PasswordHash.parse(u.passwordHash()));
            } else {
                digests.put(u.name(), sha256(u.password()));
            }
        }
        dummyHash = hashes.isEmpty() ? null : PasswordHash.parse(PasswordHash.create("\u0000no such user\u0000".toCharArray()));
    }

    public boolean authenticate(String user, String password) {
        PasswordHash hashed = user == null ? null : hashes.get(user);
        if (hashed != null) {
            return hashed.matches(password);
        }
        byte[] expected = user == null ? NO_SUCH_USER : digests.getOrDefault(user, NO_SUCH_USER);
        if (expected == NO_SUCH_USER && dummyHash != null) {
            dummyHash.matches(password); // as long as a hashed user's check
            return false;
        }
        boolean match = MessageDigest.isEqual(expected, sha256(password == null ? "" : password));
        return match && expected != NO_SUCH_USER;
    }

    public boolean exists(String user) {
        return user != null && (digests.containsKey(user) || hashes.containsKey(user));
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
