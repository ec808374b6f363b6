package engine

// roleStates holds each role's own state; each type is defined in the
// role's file.
type roleStates struct {
	seer     seerState
	witch    witchState
	guard    guardState
	beauty   wolfBeautyState
	knight   knightState
	dream    dreamweaverState
	fear     nightmareState
	eclipse  eclipseQueenState
	evil     evilKnightState
	blood    bloodMoonState
	hunt     demonHunterState
	checks   pureWhiteState
	gargoyle gargoyleState
	grave    gravekeeperState
	prince   princeState
	idiot    idiotState
	thief    thiefState

	silence  silenceElderState
	stalk    stalkerState
	hug      butterflyState
	demon    demonState
	fox      foxState
	gambler  gamblerState
	merchant merchantState
	elder    elderState
	child    wildChildState
	half     halfBloodState
	rogue    rogueState
	bear     bearState
	lovers   loversState
	cupid    cupidState
	succubus succubusState
	hunter   hunterState
}
