/**
 * The bottom of the module graph: small things several modules need and none owns. {@link
 * io.holdfast.common.Durations} (the one duration parser: the command line, the environment and the YAML config),
 * {@link io.holdfast.common.Debounce} and {@link io.holdfast.common.DebounceThread} (the one coalescing rule, pure
 * and driven on an injected ticker: the directory watcher and the Kubernetes source), {@link
 * io.holdfast.common.Wake} (the one lock-and-condition wake-up: the elector, the status writer, the debounce
 * thread).
 *
 * <p>Why a module of its own rather than a package of an existing one: election must stay standalone (it imports
 * no other Holdfast module) and api must not depend on election, yet both parse durations; server's directory
 * watcher and kube's source both debounce, and neither server-to-kube nor kube-to-pipeline is a reason to share a
 * timing rule. So this module depends on nothing of Holdfast (slf4j only), and anything may depend on it. It holds
 * no routing, Kubernetes or xDS knowledge; ModuleGraphTest fails if it ever imports another Holdfast module.
 */
package io.holdfast.common;
