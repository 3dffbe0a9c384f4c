// Package slicediff is the sliced build's differential test (issue 12):
// every example, bench kernel and PolyBench port, the racy variant of each,
// and programs of the soundness fuzzer are built twice, with goanomaly build
// and with goanomaly build -slice, run with one P and JSON reports, and the
// test fails on any difference in the reported pairs (sites, kinds, classes,
// constructs, blocks and iterations), their counts or the exit status. The
// package has no code of its own: the test is in slicediff_test.go, and
// `make slicediff` runs it.
package slicediff
