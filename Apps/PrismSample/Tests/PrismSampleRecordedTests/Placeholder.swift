// Where `make test-written` puts the test PrismInspector writes from the sample app's session
// (RecordedSampleSession.swift, not committed), to compile and run it as the target's tests.
// See Tools/scripts/test-written.sh. This file keeps the target from being empty.
