#include "textflag.h"

// func getg() unsafe.Pointer: the calling goroutine's g.
TEXT ·getg(SB), NOSPLIT, $0-8
	MOV g, A0
	MOV A0, ret+0(FP)
	RET
