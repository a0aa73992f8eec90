// Where `make test-written` puts the test PrismInspector writes from the sample app's session, to
// compile and run it as the target's tests: written over this file, which is put back at the end
// (a file added and removed would change the package's graph; see Tools/scripts/test-written.sh).
// This file keeps the target from being empty.
