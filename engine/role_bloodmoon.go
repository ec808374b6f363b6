package engine

// 血月使徒 (rules.md B): revealed when it explodes, or when it is exiled as
// the last wolf; after it explodes, good roles' night skills fail the
// following night (bloodmoon.seal_after_explode).

type bloodMoonState struct {
	sealNight int // good roles' night skills fail on this night
}

func bloodMoonHooks() roleHooks {
	return roleHooks{
		night: nightHooks{
			blocked: func(g *Game, s int) bool {
				return g.rs.bloodmoon.sealNight == g.night && g.role(s).Camp() != CampWolf
			},
		},
		day: dayHooks{
			exploding: func(g *Game, s int) {
				g.revealBloodMoon(s)
				if g.opt.BloodMoonSeal {
					g.rs.bloodmoon.sealNight = g.night + 1 // std: good roles' night skills fail the following night
				}
			},
		},
		death: deathHooks{
			takeOver: func(g *Game, s int, c Cause) bool {
				if c == CauseExile && g.lastWolf(s) {
					g.revealBloodMoon(s) // exiled as the last wolf: revealed automatically
				}
				return false
			},
		},
	}
}

// lastWolf: s is the only wolf-camp player left.
func (g *Game) lastWolf(s int) bool {
	for x := 1; x <= g.n; x++ {
		if x != s && g.living(x) && g.role(x).IsWolf() {
			return false
		}
	}
	return true
}

func (g *Game) revealBloodMoon(s int) {
	g.say("bloodmoon.reveal", s)
	g.record(Record{Type: RecReveal, Seat: s, Role: BloodMoon})
}
