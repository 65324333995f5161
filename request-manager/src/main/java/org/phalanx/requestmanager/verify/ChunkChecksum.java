package org.phalanx.requestmanager.verify;

import java.math.BigInteger;

/**
 * What one replica says of one chunk: how many rows, and the sum of their row hashes (order does
 * not matter, so each engine may read the rows in any order).
 */
record ChunkChecksum(long rows, BigInteger hashSum) {
}
