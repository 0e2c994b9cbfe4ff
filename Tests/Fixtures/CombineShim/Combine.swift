// A minimal shim of Combine, so a generated `ObservableObject` store type-checks on Linux, where
// Combine doesn't exist. Declarations mirror Apple's pages, relative to
// https://developer.apple.com/documentation/combine/ (the ".md" pages): every symbol is iOS 13.0,
// macOS 10.15, tvOS 13.0, watchOS 6.0, visionOS 1.0 (macCatalyst 13.0).
//
// It behaves only as far as a store's own code needs: `@Published` stores its value, and
// `objectWillChange.send()` does nothing, because nothing subscribes on Linux.

// MARK: - Publisher, Subscriber, Subscription

/// publisher.md: `protocol Publisher<Output, Failure>`
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, visionOS 1.0, *)
public protocol Publisher<Output, Failure> {
  associatedtype Output
  associatedtype Failure: Error
  /// publisher/receive(subscriber:).md
  func receive<S>(subscriber: S) where S: Subscriber, Self.Failure == S.Failure, Self.Output == S.Input
}

/// subscriber.md: `protocol Subscriber<Input, Failure> : CustomCombineIdentifierConvertible`
/// (the identifier protocol is left out).
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, visionOS 1.0, *)
public protocol Subscriber<Input, Failure> {
  associatedtype Input
  associatedtype Failure: Error
  func receive(subscription: any Subscription)
  func receive(_ input: Self.Input) -> Subscribers.Demand
  func receive(completion: Subscribers.Completion<Self.Failure>)
}

/// cancellable.md: `protocol Cancellable`
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, visionOS 1.0, *)
public protocol Cancellable {
  func cancel()
}

/// subscription.md: `protocol Subscription : Cancellable, CustomCombineIdentifierConvertible`
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, visionOS 1.0, *)
public protocol Subscription: Cancellable {
  func request(_ demand: Subscribers.Demand)
}

/// subscribers.md: `enum Subscribers` (a namespace).
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, visionOS 1.0, *)
public enum Subscribers {
  /// subscribers/demand.md: `@frozen struct Demand`; Equatable, Comparable, Hashable, Sendable.
  @frozen
  public struct Demand: Equatable, Hashable, Sendable {
    @usableFromInline internal let rawValue: UInt
    @inlinable internal init(rawValue: UInt) { self.rawValue = rawValue }
    /// subscribers/demand/unlimited.md: `static let unlimited: Subscribers.Demand`
    public static let unlimited = Demand(rawValue: .max)
    /// subscribers/demand/none.md: `static let none: Subscribers.Demand`
    public static let none = Demand(rawValue: 0)
    /// subscribers/demand/max(_:).md: `static func max(_ value: Int) -> Subscribers.Demand`
    @inlinable public static func max(_ value: Int) -> Subscribers.Demand { Demand(rawValue: UInt(value)) }
  }

  /// subscribers/completion.md: `enum Completion<Failure> where Failure : Error`, frozen in
  /// Combine's module interface.
  @frozen
  public enum Completion<Failure: Error> {
    case finished
    case failure(Failure)
  }
}

// MARK: - ObservableObject

/// observableobjectpublisher.md: `final class ObservableObjectPublisher`; Publisher with
/// `Output == Void`, `Failure == Never`.
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, visionOS 1.0, *)
final public class ObservableObjectPublisher: Publisher {
  public typealias Output = Void
  public typealias Failure = Never

  /// observableobjectpublisher/init().md: `init()`
  public init() {}

  /// observableobjectpublisher/receive(subscriber:).md
  final public func receive<S>(subscriber: S) where S: Subscriber, S.Failure == Never, S.Input == () {}

  /// observableobjectpublisher/send().md: `final func send()`
  final public func send() {}
}

/// observableobject.md: `protocol ObservableObject : AnyObject`
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, visionOS 1.0, *)
public protocol ObservableObject: AnyObject {
  /// observableobject/objectwillchangepublisher.md: `associatedtype ObjectWillChangePublisher :
  /// Publisher = ObservableObjectPublisher where Self.ObjectWillChangePublisher.Failure == Never`
  associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
  where Self.ObjectWillChangePublisher.Failure == Never

  /// observableobject/objectwillchange.md: `var objectWillChange: Self.ObjectWillChangePublisher { get }`
  var objectWillChange: Self.ObjectWillChangePublisher { get }
}

/// observableobject/objectwillchange-2oa5v.md: the default implementation, `extension
/// ObservableObject where Self.ObjectWillChangePublisher == ObservableObjectPublisher`.
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, visionOS 1.0, *)
extension ObservableObject where Self.ObjectWillChangePublisher == ObservableObjectPublisher {
  /// `var objectWillChange: ObservableObjectPublisher { get }`. Apple's keeps one publisher per
  /// object; nothing subscribes on Linux, so a fresh one is enough here.
  public var objectWillChange: ObservableObjectPublisher { ObservableObjectPublisher() }
}

// MARK: - @Published

/// published.md: `@propertyWrapper struct Published<Value>`
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, visionOS 1.0, *)
@propertyWrapper
public struct Published<Value> {
  @usableFromInline internal var value: Value

  /// published/init(wrappedvalue:).md: `init(wrappedValue: Value)`
  public init(wrappedValue: Value) { self.value = wrappedValue }

  /// published/init(initialvalue:).md: `init(initialValue: Value)`
  public init(initialValue: Value) { self.value = initialValue }

  /// Apple's declares `wrappedValue` unavailable: `@Published` works only on class properties,
  /// through the enclosing-instance subscript below.
  @available(*, unavailable, message: "@Published is only available on properties of classes")
  public var wrappedValue: Value {
    get { fatalError() }
    set { fatalError() }
  }

  /// published/publisher.md: `struct Publisher` with `Output == Value`, `Failure == Never`.
  public struct Publisher: Combine.Publisher {
    public typealias Output = Value
    public typealias Failure = Never
    public func receive<S>(subscriber: S) where S: Subscriber, S.Failure == Never, S.Input == Value {}
  }

  /// published/projectedvalue.md: `var projectedValue: Published<Value>.Publisher { mutating get set }`
  public var projectedValue: Published<Value>.Publisher {
    mutating get { Publisher() }
    set {}
  }

  /// The enclosing-instance subscript through which class properties read and write the value.
  public static subscript<EnclosingSelf: AnyObject>(
    _enclosingInstance object: EnclosingSelf,
    wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
    storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
  ) -> Value {
    get { object[keyPath: storageKeyPath].value }
    set { object[keyPath: storageKeyPath].value = newValue }
  }
}
