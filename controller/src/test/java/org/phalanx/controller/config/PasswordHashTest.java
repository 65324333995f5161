package org.phalanx.controller.config;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.phalanx.controller.vdb.VirtualUsers;

class PasswordHashTest {
    @Test
    void aHashMatchesItsPasswordOnlyAndIsSaltedEachTime() {
        String hash = PasswordHash.create("s3cret".toCharArray());
        assertTrue(hash.startsWith("pbkdf2-sha256:" + PasswordHash.ITERATIONS + ":"), hash);
        assertTrue(PasswordHash.parse(hash).matches("s3cret"));
        assertFalse(PasswordHash.parse(hash).matches("s3cret "));
        assertFalse(PasswordHash.parse(hash).matches(null));
        assertNotEquals(hash, PasswordHash.create("s3cret".toCharArray()), "a new salt each time");
        for (String bad : List.of("s3cret", "pbkdf2-sha256:x:AA==:AA==", "md5:1:AA==:AA==", "pbkdf2-sha256:0:AA==:AA==")) {
            assertThrows(IllegalArgumentException.class, () -> PasswordHash.parse(bad), bad);
        }
    }

    @Test
    void virtualUsersKeptAsHashesAndInClearSideBySide() {
        VirtualUsers users = new VirtualUsers(List.of(new VirtualUser("hashed", null, PasswordHash.create("a".toCharArray())),
                new VirtualUser("clear", "b")));
        assertTrue(users.authenticate("hashed", "a"));
        assertFalse(users.authenticate("hashed", "b"));
        assertTrue(users.authenticate("clear", "b"));
        assertFalse(users.authenticate("nobody", "a"));
        assertFalse(users.authenticate(null, "a"));
        assertTrue(users.exists("hashed"));
    }
}
