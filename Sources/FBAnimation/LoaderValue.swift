import FBRaster

/// A loader whose type is known only at run time: what the renderer holds.
///
/// Everywhere but Embedded Swift this is `any Loader` itself. Embedded Swift
/// (the ARM check, `Tests/ARM`) has no values of a protocol type that is not
/// class-bound ("cannot use a value of protocol type 'any Loader' in
/// embedded Swift"), so there a loader travels in a class that forwards to
/// it: class references and their vtables are what Embedded Swift has for
/// dynamic dispatch. Code that makes or unwraps one goes through
/// `loaderValue(_:)`, which reads the same in both.
#if hasFeature(Embedded)
    public class LoaderValue {
        /// The loader's `mainColor`.
        public var mainColor: Color {
            get { fatalError("abstract") }
            set { fatalError("abstract") }
        }
        /// The loader's `frame(_:into:)`.
        public func frame(_ context: LoaderContext, into ops: inout [DrawOp]) {
            fatalError("abstract")
        }
        /// The loader's `stillUntil(_:)`.
        public func stillUntil(_ context: LoaderContext) -> Double { fatalError("abstract") }
    }

    /// A `LoaderValue` holding a loader of type `L`.
    final class ConcreteLoaderValue<L: Loader>: LoaderValue {
        var base: L
        init(_ base: L) { self.base = base }
        override var mainColor: Color {
            get { base.mainColor }
            set { base.mainColor = newValue }
        }
        override func frame(_ context: LoaderContext, into ops: inout [DrawOp]) {
            base.frame(context, into: &ops)
        }
        override func stillUntil(_ context: LoaderContext) -> Double { base.stillUntil(context) }
    }

    /// `loader` as a value whose type is known only at run time.
    public func loaderValue<L: Loader>(_ loader: L) -> LoaderValue { ConcreteLoaderValue(loader) }
#else
    public typealias LoaderValue = any Loader

    /// `loader` as a value whose type is known only at run time.
    public func loaderValue<L: Loader>(_ loader: L) -> LoaderValue { loader }
#endif
