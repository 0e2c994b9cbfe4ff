// A shim of the Keychain generic-password calls a small cache uses, so generated code that
// `import Security` type-checks on Linux. Declarations follow Apple's Swift interface
// (https://developer.apple.com/documentation/security/…): the functions take `CFDictionary` and
// return `OSStatus`, the keys and values are `let …: CFString`, the status codes
// `var …: OSStatus { get }`. Nothing is stored: every call reports `errSecItemNotFound` or
// `errSecSuccess`, so nothing here behaves like a keychain.
//
// Linux Foundation has no CoreFoundation types, so they are type aliases of the bridged Foundation
// classes. That keeps Apple-platform spellings compiling unchanged: `query as CFDictionary`
// (`[String: Any]` bridges to NSDictionary), `kSecClass as String` (NSString bridges to String),
// `var item: CFTypeRef?` with `&item`, and `item as? Data`.
import Foundation

/// CoreFoundation/cfdictionary.md: `class CFDictionary`; NSDictionary is toll-free bridged.
public typealias CFDictionary = NSDictionary
/// CoreFoundation/cfstring.md: `class CFString`; NSString is toll-free bridged.
public typealias CFString = NSString
/// CoreFoundation/cfdata.md: `class CFData`; NSData is toll-free bridged.
public typealias CFData = NSData
/// CoreFoundation/cfboolean.md: `class CFBoolean`; NSNumber stands in for it.
public typealias CFBoolean = NSNumber
/// CoreFoundation/cftyperef.md: `typealias CFTypeRef = AnyObject`
public typealias CFTypeRef = AnyObject
/// CoreServices/osstatus.md: `typealias OSStatus = Int32`
public typealias OSStatus = Int32

/// CoreFoundation/kcfbooleantrue.md: `let kCFBooleanTrue: CFBoolean!`
public let kCFBooleanTrue: CFBoolean! = NSNumber(value: true)
/// CoreFoundation/kcfbooleanfalse.md: `let kCFBooleanFalse: CFBoolean!`
public let kCFBooleanFalse: CFBoolean! = NSNumber(value: false)

// MARK: - Functions (security/secitemadd(_:_:).md and siblings), iOS 2.0, macOS 10.6

/// security/secitemadd(_:_:).md: `func SecItemAdd(_ attributes: CFDictionary,
/// _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus`
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
  errSecSuccess
}

/// security/secitemcopymatching(_:_:).md: `func SecItemCopyMatching(_ query: CFDictionary,
/// _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus`
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
  result?.pointee = nil
  return errSecItemNotFound
}

/// security/secitemupdate(_:_:).md: `func SecItemUpdate(_ query: CFDictionary,
/// _ attributesToUpdate: CFDictionary) -> OSStatus`
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
  errSecItemNotFound
}

/// security/secitemdelete(_:).md: `func SecItemDelete(_ query: CFDictionary) -> OSStatus`
public func SecItemDelete(_ query: CFDictionary) -> OSStatus {
  errSecItemNotFound
}

// MARK: - Result codes (security/errsecsuccess.md and siblings): `var …: OSStatus { get }`

public var errSecSuccess: OSStatus { 0 }
public var errSecItemNotFound: OSStatus { -25300 }
public var errSecDuplicateItem: OSStatus { -25299 }

// MARK: - Keys and values (security/ksecclass.md and siblings): `let …: CFString`
// (NSString isn't Sendable on Linux, hence `nonisolated(unsafe)`; Apple's are plain `let`.)

nonisolated(unsafe) public let kSecClass: CFString = "class"
nonisolated(unsafe) public let kSecClassGenericPassword: CFString = "genp"
nonisolated(unsafe) public let kSecAttrService: CFString = "svce"
nonisolated(unsafe) public let kSecAttrAccount: CFString = "acct"
nonisolated(unsafe) public let kSecValueData: CFString = "v_Data"
nonisolated(unsafe) public let kSecReturnData: CFString = "r_Data"
nonisolated(unsafe) public let kSecMatchLimit: CFString = "m_Limit"
nonisolated(unsafe) public let kSecMatchLimitOne: CFString = "m_LimitOne"
nonisolated(unsafe) public let kSecAttrAccessible: CFString = "pdmn"
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
/// security/ksecusedataprotectionkeychain.md: `let kSecUseDataProtectionKeychain: CFString`,
/// iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, visionOS 1.0.
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, visionOS 1.0, *)
nonisolated(unsafe) public let kSecUseDataProtectionKeychain: CFString = "nleg"
