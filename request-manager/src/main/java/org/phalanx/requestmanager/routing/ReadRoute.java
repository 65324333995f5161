package org.phalanx.requestmanager.routing;

import java.util.List;
import org.phalanx.requestmanager.backend.Backend;

/**
 * The backends able to serve a read.
 *
 * @param equivalent whether every candidate is known to hold what the read names, so one
 *                   failing where another succeeds means it has diverged (false when the read
 *                   names tables the schema view does not know, such as system catalogs)
 */
public record ReadRoute(List<Backend> candidates, boolean equivalent) {
}
