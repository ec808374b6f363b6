// Package policy holds the repository's house rules as tests, in the manner
// of the standard library's go/build/deps_test.go: a statement of policy
// that go test ./... checks. It has no code of its own.
//
//   - TestNoCommittedBuildOutputs: no tracked file is a compiled program or
//     object, an executable without a #! line, or over 1 MB, unless it has
//     a line in allowed-files.txt saying why.
package policy
