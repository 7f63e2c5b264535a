package io.holdfast.it.bench.election;

import io.holdfast.testkit.FaultProxy;
import java.util.Optional;

/** One replica of one elector implementation, reaching the emulated API only through its own proxy. */
interface Contender extends AutoCloseable {

  String identity();

  FaultProxy proxy();

  /** Whether this replica believes, right now, that it leads (what its application would act on). */
  boolean leads();

  /** The leader this replica last observed, if any. */
  Optional<String> observedLeader();

  /** Whether it is settled as follower or leader: watching (Holdfast) or knowing the leader (fabric8). */
  boolean settled();

  /** Whether the elector has ended and can never lead again without being rebuilt. */
  boolean finished();

  /** Shuts down as its documentation says: Holdfast close() (releases), fabric8 cancel (release on cancel). */
  void stopGracefully();

  @Override
  void close();
}
