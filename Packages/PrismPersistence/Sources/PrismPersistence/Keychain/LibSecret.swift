#if !canImport(Security) && (canImport(Glibc) || canImport(Musl))
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// libsecret (the freedesktop Secret Service client) and the few glib calls it needs, loaded
/// at run time with `dlopen`: building Prism needs no libsecret headers, and a machine without
/// libsecret runs every strategy but the keychain, which reports what to install.
///
/// Only non-variadic calls are used. The handle stays open for the life of the process.
package struct LibSecret: @unchecked Sendable {  // immutable: C function pointers of a library never unloaded
    /// The shared object `dlopen` looks for (Debian and Ubuntu: package `libsecret-1-0`).
    static let libraryName = "libsecret-1.so.0"

    /// The library, loaded on first use; or why it could not be.
    package static let shared: Result<LibSecret, LibSecretLoadError> = load(libraryName)

    // Opaque glib and libsecret objects are raw pointers; strings are C strings.
    package typealias Pointer = UnsafeMutableRawPointer
    package typealias ErrorOut = UnsafeMutablePointer<Pointer?>
    typealias SchemaNewFunction = @convention(c) (UnsafePointer<CChar>, Int32, Pointer) -> Pointer?
    typealias SchemaUnrefFunction = @convention(c) (Pointer) -> Void
    typealias PasswordLookupFunction =
        @convention(c) (Pointer, Pointer, Pointer?, ErrorOut) -> UnsafeMutablePointer<CChar>?
    typealias PasswordStoreFunction =
        @convention(c) (
            Pointer, Pointer, UnsafePointer<CChar>?, UnsafePointer<CChar>, UnsafePointer<CChar>, Pointer?, ErrorOut
        ) -> Int32
    typealias PasswordClearFunction = @convention(c) (Pointer, Pointer, Pointer?, ErrorOut) -> Int32
    typealias PasswordSearchFunction = @convention(c) (Pointer, Pointer, UInt32, Pointer?, ErrorOut) -> Pointer?
    typealias PasswordFreeFunction = @convention(c) (UnsafeMutablePointer<CChar>?) -> Void
    typealias ErrorQuarkFunction = @convention(c) () -> UInt32
    package typealias ServiceGetFunction = @convention(c) (UInt32, Pointer?, ErrorOut) -> Pointer?
    package typealias CollectionForAliasFunction =
        @convention(c) (Pointer, UnsafePointer<CChar>, UInt32, Pointer?, ErrorOut) -> Pointer?
    package typealias ServiceLockFunction =
        @convention(c) (Pointer, Pointer?, Pointer?, UnsafeMutablePointer<Pointer?>?, ErrorOut) -> Int32
    typealias HashTableNewFullFunction = @convention(c) (Pointer, Pointer, Pointer?, Pointer?) -> Pointer?
    typealias HashTableInsertFunction = @convention(c) (Pointer, Pointer?, Pointer?) -> Int32
    typealias HashTableUnrefFunction = @convention(c) (Pointer) -> Void
    typealias StrdupFunction = @convention(c) (UnsafePointer<CChar>) -> Pointer?
    typealias ErrorFreeFunction = @convention(c) (Pointer) -> Void
    typealias QuarkToStringFunction = @convention(c) (UInt32) -> UnsafePointer<CChar>?
    typealias IoErrorQuarkFunction = @convention(c) () -> UInt32
    typealias DbusErrorQuarkFunction = @convention(c) () -> UInt32
    typealias ListFreeFullFunction = @convention(c) (Pointer, Pointer) -> Void
    package typealias ListAppendFunction = @convention(c) (Pointer?, Pointer?) -> Pointer?
    package typealias ListFreeFunction = @convention(c) (Pointer?) -> Void
    package typealias ObjectUnrefFunction = @convention(c) (Pointer) -> Void

    // libsecret
    let schemaNew: SchemaNewFunction
    let schemaUnref: SchemaUnrefFunction
    let passwordLookup: PasswordLookupFunction
    let passwordStore: PasswordStoreFunction
    let passwordClear: PasswordClearFunction
    let passwordSearch: PasswordSearchFunction
    let passwordFree: PasswordFreeFunction
    let errorQuark: ErrorQuarkFunction
    package let serviceGet: ServiceGetFunction
    package let collectionForAlias: CollectionForAliasFunction
    package let serviceLock: ServiceLockFunction
    // glib, gobject, gio (libsecret's own dependencies, found through its handle)
    let hashTableNewFull: HashTableNewFullFunction
    let hashTableInsert: HashTableInsertFunction
    let hashTableUnref: HashTableUnrefFunction
    let strdup: StrdupFunction
    let errorFree: ErrorFreeFunction
    let quarkToString: QuarkToStringFunction
    let ioErrorQuark: IoErrorQuarkFunction
    let dbusErrorQuark: DbusErrorQuarkFunction
    let listFreeFull: ListFreeFullFunction
    package let listAppend: ListAppendFunction
    package let listFree: ListFreeFunction
    package let objectUnref: ObjectUnrefFunction
    /// `g_str_hash`, `g_str_equal`, `g_free` and `g_object_unref`, as callbacks for glib.
    let strHashFunction: Pointer
    let strEqualFunction: Pointer
    let freeFunction: Pointer
    let objectUnrefFunction: Pointer

    // Constants of the headers of libsecret (0.20) and gio (2.74), read off them with a C
    // program; enum values are part of the ABI and do not change between versions.
    static let schemaNone: Int32 = 0
    static let attributeString = 0
    static let searchAll: UInt32 = 1 << 1
    static let errorIsLocked: Int32 = 2
    /// `G_DBUS_ERROR_*` codes that mean nobody (or no default keyring) is there to answer:
    /// SERVICE_UNKNOWN, NAME_HAS_NO_OWNER, NO_REPLY, NO_SERVER, TIMEOUT, DISCONNECTED,
    /// TIMED_OUT, the SPAWN_* errors, UNKNOWN_OBJECT.
    static let unavailableDBusCodes = Set<Int32>([2, 3, 4, 11, 12, 15, 20, 41] + Array(23...34))

    /// Loads `name` and looks up every symbol, or says what is missing.
    static func load(_ name: String) -> Result<LibSecret, LibSecretLoadError> {
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            return .failure(LibSecretLoadError(library: name, reason: reason))
        }
        do {
            return .success(try LibSecret(handle: handle, library: name))
        } catch {
            dlclose(handle)
            return .failure(error)
        }
    }

    private init(handle: UnsafeMutableRawPointer, library: String) throws(LibSecretLoadError) {
        func symbol(_ name: String) throws(LibSecretLoadError) -> Pointer {
            guard let pointer = dlsym(handle, name) else {
                throw LibSecretLoadError(library: library, reason: "it has no symbol \(name)")
            }
            return pointer
        }
        func function<F>(_ name: String, as _: F.Type) throws(LibSecretLoadError) -> F {
            unsafeBitCast(try symbol(name), to: F.self)
        }
        schemaNew = try function("secret_schema_newv", as: SchemaNewFunction.self)
        schemaUnref = try function("secret_schema_unref", as: SchemaUnrefFunction.self)
        passwordLookup = try function("secret_password_lookupv_sync", as: PasswordLookupFunction.self)
        passwordStore = try function("secret_password_storev_sync", as: PasswordStoreFunction.self)
        passwordClear = try function("secret_password_clearv_sync", as: PasswordClearFunction.self)
        passwordSearch = try function("secret_password_searchv_sync", as: PasswordSearchFunction.self)
        passwordFree = try function("secret_password_free", as: PasswordFreeFunction.self)
        errorQuark = try function("secret_error_get_quark", as: ErrorQuarkFunction.self)
        serviceGet = try function("secret_service_get_sync", as: ServiceGetFunction.self)
        collectionForAlias = try function("secret_collection_for_alias_sync", as: CollectionForAliasFunction.self)
        serviceLock = try function("secret_service_lock_sync", as: ServiceLockFunction.self)
        hashTableNewFull = try function("g_hash_table_new_full", as: HashTableNewFullFunction.self)
        hashTableInsert = try function("g_hash_table_insert", as: HashTableInsertFunction.self)
        hashTableUnref = try function("g_hash_table_unref", as: HashTableUnrefFunction.self)
        strdup = try function("g_strdup", as: StrdupFunction.self)
        errorFree = try function("g_error_free", as: ErrorFreeFunction.self)
        quarkToString = try function("g_quark_to_string", as: QuarkToStringFunction.self)
        ioErrorQuark = try function("g_io_error_quark", as: IoErrorQuarkFunction.self)
        dbusErrorQuark = try function("g_dbus_error_quark", as: DbusErrorQuarkFunction.self)
        listFreeFull = try function("g_list_free_full", as: ListFreeFullFunction.self)
        listAppend = try function("g_list_append", as: ListAppendFunction.self)
        listFree = try function("g_list_free", as: ListFreeFunction.self)
        objectUnref = try function("g_object_unref", as: ObjectUnrefFunction.self)
        strHashFunction = try symbol("g_str_hash")
        strEqualFunction = try symbol("g_str_equal")
        freeFunction = try symbol("g_free")
        objectUnrefFunction = try symbol("g_object_unref")
    }

    /// A glib copy of `string`, for a hash table that frees its keys and values with `g_free`.
    func copy(_ string: String) -> Pointer? {
        string.withCString { strdup($0) }
    }

    /// The domain, code and message of a `GError`, which it then frees.
    package func take(_ error: Pointer) -> (domain: UInt32, code: Int32, message: String) {
        defer { errorFree(error) }
        let domain = error.load(fromByteOffset: 0, as: UInt32.self)
        let code = error.load(fromByteOffset: 4, as: Int32.self)
        let message = error.load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self).map { String(cString: $0) }
        return (domain, code, message ?? "no message")
    }

    /// The name of a `GError` domain, such as `g-dbus-error-quark`.
    func name(ofDomain domain: UInt32) -> String {
        quarkToString(domain).map { String(cString: $0) } ?? "domain \(domain)"
    }
}

/// Why libsecret could not be loaded.
package struct LibSecretLoadError: Error, Sendable {
    /// The library `dlopen` was asked for.
    package let library: String
    /// What `dlopen` or `dlsym` said.
    package let reason: String
}
#endif
