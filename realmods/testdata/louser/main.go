// Command louser is the user module of goanomaly's realmods harness: a
// program that requires github.com/samber/lo and counts the items its
// parallel.Map callback sees in one shared variable, a data race.
package main

import (
	"fmt"

	"github.com/samber/lo/parallel"
)

func main() {
	words := []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"}
	letters := 0
	lengths := parallel.Map(words, func(w string, i int) int {
		letters += len(w) // RACE: one counter for every word
		return len(w)
	})
	fmt.Println(lengths, letters)
}
