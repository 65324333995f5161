package org.phalanx.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SqlStateTest {

    @Test
    void everyCodeIsFiveCharactersAndUnique() {
        Set<String> seen = new HashSet<>();
        for (SqlState s : SqlState.values()) {
            assertTrue(s.code().matches("[0-9A-Z]{5}"), s + " " + s.code());
            assertTrue(seen.add(s.code()), "two constants share " + s.code());
        }
    }

    @Test
    void codesAreTheStandardOnes() {
        assertEquals("40001", SqlState.SERIALIZATION_FAILURE.code());
        assertEquals("25P02", SqlState.IN_FAILED_SQL_TRANSACTION.code());
        assertEquals("0A000", SqlState.FEATURE_NOT_SUPPORTED.code());
        assertEquals("XX000", SqlState.INTERNAL_ERROR.code());
        assertEquals("53100", SqlState.DISK_FULL.code());
        assertEquals("58030", SqlState.IO_ERROR.code());
    }

    @Test
    void isComparesTheWholeCode() {
        assertTrue(SqlState.INVALID_AUTHORIZATION_SPECIFICATION.is("28000"));
        assertFalse(SqlState.INVALID_AUTHORIZATION_SPECIFICATION.is("28P01"));
        assertFalse(SqlState.INVALID_AUTHORIZATION_SPECIFICATION.is(null));
    }

    @Test
    void isClassOfComparesTheFirstTwoCharacters() {
        assertTrue(SqlState.CONNECTION_EXCEPTION.isClassOf("08006"));
        assertTrue(SqlState.CONNECTION_EXCEPTION.isClassOf("08S01"));
        assertFalse(SqlState.CONNECTION_EXCEPTION.isClassOf("28000"));
        assertFalse(SqlState.CONNECTION_EXCEPTION.isClassOf(null));
    }
}
