"""Reads an index store, the record of every name a build resolved, through libIndexStore.

The Swift compiler, given `-index-store-path` (SwiftPM passes it to every debug build on Linux:
.build/debug/index/store), writes for each file it compiles a record: every occurrence of a
symbol in the file, with the symbol's precise identifier (USR), its roles (a definition, a
reference, a call, an implicit use) and its line and column; and for each compilation a unit,
which names the records of the files it compiled. The toolchain's libIndexStore reads them;
its C API is indexstore.h (in the toolchain's usr/local/include/indexstore), called here
through ctypes. Used by check-availability.py.
"""
import ctypes
import pathlib


class IndexStoreError(Exception):
    pass


class StringRef(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("length", ctypes.c_size_t)]


def text_of(reference: StringRef) -> str:
    return ctypes.string_at(reference.data, reference.length).decode() if reference.length else ""


# Roles of an occurrence (indexstore_symbol_role_t) and the kind of a unit's dependency on a record.
DECLARATION, DEFINITION, REFERENCE, IMPLICIT = 1 << 0, 1 << 1, 1 << 2, 1 << 8
RECORD_DEPENDENCY = 2


class IndexStore:
    """The index store a build wrote: for each source file its record, and in a record every
    occurrence of a symbol (USR, roles, line, column). Read through libIndexStore's C API
    (indexstore.h)."""

    UNIT = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, StringRef)
    DEPENDENCY = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, ctypes.c_void_p)
    OCCURRENCE = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, ctypes.c_void_p)
    FILTER = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_bool))
    RECEIVER = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)

    def __init__(self, library: pathlib.Path, path: pathlib.Path):
        lib = self.lib = ctypes.CDLL(str(library))
        pointer = ctypes.c_void_p
        signatures = {
            "indexstore_store_create": (pointer, [ctypes.c_char_p, ctypes.POINTER(pointer)]),
            "indexstore_error_get_description": (ctypes.c_char_p, [pointer]),
            "indexstore_store_units_apply_f": (ctypes.c_bool, [pointer, ctypes.c_uint, pointer, self.UNIT]),
            "indexstore_unit_reader_create": (pointer, [pointer, ctypes.c_char_p, ctypes.POINTER(pointer)]),
            "indexstore_unit_reader_dispose": (None, [pointer]),
            "indexstore_unit_reader_get_main_file": (StringRef, [pointer]),
            "indexstore_unit_reader_is_system_unit": (ctypes.c_bool, [pointer]),
            "indexstore_unit_reader_get_modification_time": (
                None, [pointer, ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int64)]),
            "indexstore_unit_reader_dependencies_apply_f": (ctypes.c_bool, [pointer, pointer, self.DEPENDENCY]),
            "indexstore_unit_dependency_get_kind": (ctypes.c_int, [pointer]),
            "indexstore_unit_dependency_get_name": (StringRef, [pointer]),
            "indexstore_unit_dependency_get_filepath": (StringRef, [pointer]),
            "indexstore_record_reader_create": (pointer, [pointer, ctypes.c_char_p, ctypes.POINTER(pointer)]),
            "indexstore_record_reader_dispose": (None, [pointer]),
            "indexstore_record_reader_occurrences_apply_f": (ctypes.c_bool, [pointer, pointer, self.OCCURRENCE]),
            "indexstore_record_reader_search_symbols_f": (
                ctypes.c_bool, [pointer, pointer, self.FILTER, pointer, self.RECEIVER]),
            "indexstore_record_reader_occurrences_of_symbols_apply_f": (
                ctypes.c_bool, [pointer, ctypes.POINTER(pointer), ctypes.c_size_t, ctypes.POINTER(pointer),
                                ctypes.c_size_t, pointer, self.OCCURRENCE]),
            "indexstore_occurrence_get_symbol": (pointer, [pointer]),
            "indexstore_occurrence_get_roles": (ctypes.c_uint64, [pointer]),
            "indexstore_occurrence_get_line_col": (
                None, [pointer, ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint)]),
            "indexstore_symbol_get_usr": (StringRef, [pointer]),
        }
        for name, (result, arguments) in signatures.items():
            function = getattr(lib, name)
            function.restype, function.argtypes = result, arguments
        if not (path / "v5" / "units").is_dir():
            raise IndexStoreError(f"{path} is no index store (no v5/units)")
        error = pointer()
        self.store = lib.indexstore_store_create(str(path).encode(), ctypes.byref(error))
        if not self.store:
            raise IndexStoreError(f"cannot open the index store {path}: {lib.indexstore_error_get_description(error)}")

    def records(self, wanted) -> dict:
        """{source path: (record name, unit time)} for the source files `wanted(path)` accepts:
        the newest unit's record of each."""
        lib, names = self.lib, []

        @self.UNIT
        def on_unit(_, name):
            names.append(text_of(name))
            return True

        lib.indexstore_store_units_apply_f(self.store, 0, None, on_unit)
        found = {}
        for unit in names:
            error = ctypes.c_void_p()
            reader = lib.indexstore_unit_reader_create(self.store, unit.encode(), ctypes.byref(error))
            if not reader:
                continue
            try:
                if lib.indexstore_unit_reader_is_system_unit(reader):
                    continue
                seconds, nanoseconds = ctypes.c_int64(), ctypes.c_int64()
                lib.indexstore_unit_reader_get_modification_time(reader, ctypes.byref(seconds), ctypes.byref(nanoseconds))
                stamp = seconds.value + nanoseconds.value / 1e9
                records = []

                # A unit is a compilation: its record dependencies are the records of the source
                # files it compiled (a build's unit has one; a compilation that writes no output
                # file per source, as `swiftc -typecheck`, has one unit for all its files).
                @self.DEPENDENCY
                def on_dependency(_, dependency):
                    if lib.indexstore_unit_dependency_get_kind(dependency) == RECORD_DEPENDENCY:
                        path = text_of(lib.indexstore_unit_dependency_get_filepath(dependency))
                        if wanted(path):
                            records.append((path, text_of(lib.indexstore_unit_dependency_get_name(dependency))))
                    return True

                lib.indexstore_unit_reader_dependencies_apply_f(reader, None, on_dependency)
                for path, record in records:
                    if path not in found or found[path][1] < stamp:
                        found[path] = (record, stamp)
            finally:
                lib.indexstore_unit_reader_dispose(reader)
        return found

    def occurrences(self, record: str, usrs=None):
        """[(usr, roles, line, column)] of a record; only those of `usrs` when given."""
        lib, found = self.lib, []
        error = ctypes.c_void_p()
        reader = lib.indexstore_record_reader_create(self.store, record.encode(), ctypes.byref(error))
        if not reader:
            raise IndexStoreError(f"cannot read the index record {record}")

        @self.OCCURRENCE
        def on_occurrence(_, occurrence):
            symbol = lib.indexstore_occurrence_get_symbol(occurrence)
            line, column = ctypes.c_uint(), ctypes.c_uint()
            lib.indexstore_occurrence_get_line_col(occurrence, ctypes.byref(line), ctypes.byref(column))
            found.append((text_of(lib.indexstore_symbol_get_usr(symbol)), lib.indexstore_occurrence_get_roles(occurrence),
                          line.value, column.value))
            return True

        try:
            if usrs is None:
                lib.indexstore_record_reader_occurrences_apply_f(reader, None, on_occurrence)
                return found
            symbols = []

            @self.FILTER
            def keep(_, symbol, stop):
                return text_of(lib.indexstore_symbol_get_usr(symbol)) in usrs

            @self.RECEIVER
            def receive(_, symbol):
                symbols.append(symbol)

            lib.indexstore_record_reader_search_symbols_f(reader, None, keep, None, receive)
            if symbols:
                array = (ctypes.c_void_p * len(symbols))(*symbols)
                lib.indexstore_record_reader_occurrences_of_symbols_apply_f(
                    reader, array, len(symbols), None, 0, None, on_occurrence)
            return found
        finally:
            lib.indexstore_record_reader_dispose(reader)
