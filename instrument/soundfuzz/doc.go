// Package soundfuzz is goanomaly's soundness fuzzer: it generates small
// programs from a grammar of the constructs and the aliasing, exit,
// nesting, pool, synchronization and call shapes that proofs have got
// wrong, knows each program's ground truth by simulating it (which pairs
// of access sites touch one element in concurrent goroutines, in some
// schedule), builds it with the real goanomaly command both pruned and
// conservatively, runs both and compares their reports with the truth.
//
// The verdict (Judge) for one build of one program:
//
//   - every DATA RACE reported must name a pair of sites the truth has
//     touching one element concurrently (NONDETERMINISM is not judged);
//   - every element the truth has conflicting must be reported with one of
//     its pairs (the runtime, under protocol=locked, reports each
//     conflicting location once, with one pair), unless each of its pairs
//     is covered by a note the build printed ("noted, not checked"). A note
//     covers a pair only where the family allows it: a construct left
//     without a join (exit/return, exit/goto, exit/break) or forking more than once per
//     iteration (exit/repeat), noted anywhere in the construct's lines;
//     siblings that synchronize (sync/…), noted in the construct's lines; a
//     call of a closure or a function value (callee/closure, callee/param),
//     noted on the call's line. Elsewhere a note does not excuse a miss.
//
// The generator, the simulation and the comparison are plain code in this
// package so they can be read (and vetted) on their own; the runner that
// builds and executes programs is in the tests (TestSoundnessSeeds,
// FuzzSoundness, TestSoundnessRandom).
package soundfuzz
