// Package doclinks holds the check that the project's Markdown documents
// stand on their own: every relative link in README.md, docs/*.md,
// deploy/README.md and selftest/README.md resolves to a file or folder of
// this repository, and none of them points outside it (the company's
// private ../shared folder is not part of a user's clone). The package has
// no code of its own; the check is its test.
package doclinks
