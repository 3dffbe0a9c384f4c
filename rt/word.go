package rt

// A shadow word packs one access into a uint64 so that the wait-free
// protocol's single atomic swap keeps tag, site, atomic flag and lockset
// consistent:
//
//	bits 63..32  block tag (0: no access)
//	bits 31..13  site id (0 when the id does not fit)
//	bit  12      the access was a sync/atomic operation
//	bits 11..0   lockset id (0: no lock held)
const (
	tagShift   = 32
	siteShift  = 13
	siteBits   = 19
	atomicBit  = 1 << 12
	lsBits     = 12
	lsMask     = 1<<lsBits - 1
	siteMask   = 1<<siteBits - 1
	maxTag     = 1<<32 - 1
	lsOverflow = lsMask // lockset id shared by every set past the table's capacity
)

// wordTag returns the block tag of a shadow word.
func wordTag(w uint64) uint64 { return w >> tagShift }

// wordSite returns the site id of a shadow word.
func wordSite(w uint64) Site { return Site(w>>siteShift) & siteMask }

// wordAtomic reports whether the access of w was atomic.
func wordAtomic(w uint64) bool { return w&atomicBit != 0 }

// wordLockset returns the lockset id of a shadow word.
func wordLockset(w uint64) uint32 { return uint32(w & lsMask) }

// siteField returns the site bits of a word for s, or 0 if s does not fit.
func siteField(s Site) uint64 {
	if s > siteMask {
		return 0
	}
	return uint64(s) << siteShift
}
