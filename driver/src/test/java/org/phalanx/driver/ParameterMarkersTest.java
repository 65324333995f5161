package org.phalanx.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ParameterMarkersTest {

    @Test
    void countsMarkersOutsideLiteralsIdentifiersAndComments() {
        assertEquals(0, ParameterMarkers.count("select 1"));
        assertEquals(2, ParameterMarkers.count("insert into t values (?, ?)"));
        assertEquals(1, ParameterMarkers.count("select '?', 'it''s ?', \"q?\", `b?` from t where a = ?"));
        assertEquals(1, ParameterMarkers.count("select ? -- what?\n/* why? /* nested? */ still? */ from t"));
        assertEquals(1, ParameterMarkers.count("select $$a?b$$, $tag$ ? $tag$, ? "));
        assertEquals(1, ParameterMarkers.count("select E'it\\'s?', ?"));
        assertEquals(2, ParameterMarkers.count("select a$b, ? from t where x = ?"));
        assertEquals(0, ParameterMarkers.count("select 'unterminated ?"));
    }
}
