package io.holdfast.ir;

/**
 * One config API's way into the IR. A front end takes the parsed objects of its API, plus the views of the shared
 * object store it needs (today the endpoints of Kubernetes Services), and lowers them into an {@link IrBuilder}:
 * the IR elements it contributes, each with its {@link Origin}, and one {@link ObjectStatus} per object it was
 * given. It settles what its API defines (its own rules and references) and leaves to the builder what front
 * ends share: which listener holds an address and port, which virtual host holds a domain on a listener, which
 * client target is whose.
 *
 * <p>Delegation (a route table handing a path prefix to another object) stays inside a front end: it lowers the
 * delegate's routes with their own origins (so statuses and NACKs land on the delegate), passing the path of
 * objects visited so far down the recursion and reporting a cycle on the object that closes it; a delegate
 * reached from several parents gets one {@link ParentStatus} per parent.
 *
 * <p>Called on the one pipeline thread, once per build, with a fresh builder; a front end may keep state between
 * builds (the Holdfast front end remembers each object's last accepted version).
 *
 * @param <I> what the front end reads: its API's objects and the store views it needs
 */
public interface FrontEnd<I> {

  void lower(I input, IrBuilder builder);
}
