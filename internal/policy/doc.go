// Package policy holds the repository's house rules as tests, in the manner
// of the standard library's go/build/deps_test.go: a statement of policy
// that go test ./... checks. It has no code of its own.
//
//   - TestNoCommittedBuildOutputs: no tracked file is a compiled program or
//     object, an executable without a #! line, or over 1 MB, unless it has
//     a line in allowed-files.txt saying why.
//   - TestSizeRatchet: no function over 80 lines and no file over 600 in
//     the repository's Go code (tests included, generated files not) but
//     the offenders in size-offenders.txt, a list that only shrinks: none
//     may grow, and one within the limits or gone must lose its line.
//   - TestDeps: every package imports only what the "may import" column of
//     docs/design.md's package table allows; the test reads the table from
//     the document, so the two cannot drift.
package policy
