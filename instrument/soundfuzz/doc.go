// Package soundfuzz is goanomaly's soundness fuzzer: it generates small
// programs from a grammar of the constructs and the aliasing, exit,
// nesting, pool, synchronization and call shapes that proofs have got
// wrong, knows each program's ground truth by simulating it (which pairs
// of access sites touch one element in concurrent goroutines, in some
// schedule), builds it with the real goanomaly command both pruned and
// conservatively, runs both and compares their reports with the truth.
//
// The generator, the simulation and the comparison are plain code in this
// package so they can be read (and vetted) on their own; the runner that
// builds and executes programs is in the tests (FuzzSoundness,
// TestSoundnessSeeds).
package soundfuzz
