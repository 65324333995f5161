package org.phalanx.requestmanager.pipeline;

import org.phalanx.requestmanager.analysis.MacroRewriter;
import org.phalanx.requestmanager.analysis.SqlAnalyzer;
import org.phalanx.requestmanager.backend.Backends;
import org.phalanx.requestmanager.balancer.ReadAdmission;
import org.phalanx.requestmanager.balancer.ReadBalancer;
import org.phalanx.requestmanager.cache.CacheStage;
import org.phalanx.requestmanager.config.ReadRouting;
import org.phalanx.requestmanager.config.WaitPolicy;
import org.phalanx.requestmanager.exec.BackendReads;
import org.phalanx.requestmanager.exec.ResultDescriptions;
import org.phalanx.requestmanager.hetero.BackendStatements;
import org.phalanx.requestmanager.recovery.AppliedRecords;
import org.phalanx.requestmanager.recovery.LogWriter;
import org.phalanx.requestmanager.routing.Routing;
import org.phalanx.requestmanager.scheduler.Scheduler;
import org.phalanx.requestmanager.stats.Statistics;

/**
 * A virtual database's collaborators, one per stage of the request path, in the order a request
 * meets them: analyse ({@link SqlAnalyzer}, {@link MacroRewriter}), schedule ({@link Scheduler}),
 * cache ({@link CacheStage}), route ({@link Routing}), balance ({@link ReadBalancer},
 * {@link ReadAdmission}), execute ({@link BackendStatements}, {@link BackendReads}, the backends'
 * queues), log ({@link LogWriter}). Built once by the request manager; the stages take what they
 * need from here.
 *
 * @param waitPolicy when a replicated write is answered
 * @param readRouting how a read that must see certain writes picks its backend
 * @param applied    the backends' records of applied log positions (the write path reports failed units)
 * @param descriptions what the results of statements already run look like
 */
public record Pipeline(String name, Backends backends, SqlAnalyzer analyzer, MacroRewriter macros, Scheduler scheduler,
                       CacheStage cache, Routing routing, ReadBalancer balancer, ReadAdmission admission,
                       BackendStatements statements, BackendReads reads, WaitPolicy waitPolicy, ReadRouting readRouting, LogWriter log,
                       AppliedRecords applied, Statistics statistics, ResultDescriptions descriptions) {
}
