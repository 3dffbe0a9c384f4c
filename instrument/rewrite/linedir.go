package rewrite

import (
	"fmt"
	"go/token"
)

// lineDirective returns the directive that names p for what follows it:
// a /*line*/ comment (block) or a //line one, which names the next line.
// Under a //line directive of the user's that gives no column (goyacc's
// //line parser.y:100), every position has column 0, which a directive
// may not name ("invalid column number: 0", and the rewritten file did
// not compile: testdata/review17/linedir): the column is left out, so
// it stays unknown, as the user's directive made it.
func lineDirective(p token.Position, block bool) string {
	d := fmt.Sprintf("line %s:%d", p.Filename, p.Line)
	if p.Column > 0 {
		d += fmt.Sprintf(":%d", p.Column)
	}
	if block {
		return "/*" + d + "*/"
	}
	return "//" + d
}
