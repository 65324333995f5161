package org.phalanx.bench.workload;

/**
 * The order in which a client runs the interactions of a mix: smooth weighted round robin (the
 * algorithm of nginx's upstream balancing), started at a random point. Every stretch of the
 * sequence holds the mix's proportions as closely as whole interactions allow, so each measured
 * period gets the same share of heavy interactions. Drawn at random instead, a period of a few
 * hundred interactions holds a few dozen heavy ones, and the one-backend baseline of the
 * scale-out scenarios varied by ±20% between rounds.
 */
public final class MixSequence {
    private final int[] weights;
    private final int total;
    private final int[] current;

    public MixSequence(int[] weights, int start) {
        this.weights = weights.clone();
        int sum = 0;
        for (int w : weights) {
            sum += w;
        }
        this.total = sum;
        this.current = new int[weights.length];
        for (int i = 0; i < start % Math.max(1, sum); i++) {
            next();
        }
    }

    public int next() {
        int best = -1;
        for (int i = 0; i < weights.length; i++) {
            current[i] += weights[i];
            if (weights[i] > 0 && (best < 0 || current[i] > current[best])) {
                best = i;
            }
        }
        current[best] -= total;
        return best;
    }
}
