package engine

// roleStates holds each role's own state: each field is named after its
// role's id (the Role string in roleTab), and each type is defined in the
// role's file. A state several roles share is named for what it holds and
// listed in hookstab_test.go's sharedStates (TestRoleStatesNamedAfterRoles
// holds both rules).
type roleStates struct {
	seer         seerState
	witch        witchState
	hunter       hunterState
	idiot        idiotState
	guard        guardState
	wolfbeauty   wolfBeautyState
	knight       knightState
	dreamweaver  dreamweaverState
	nightmare    nightmareState
	evilknight   evilKnightState
	bloodmoon    bloodMoonState
	demonhunter  demonHunterState
	eclipsequeen eclipseQueenState
	prince       princeState
	purewhite    pureWhiteState
	gargoyle     gargoyleState
	gravekeeper  gravekeeperState
	thief        thiefState
	silenceelder silenceElderState
	stalker      stalkerState
	butterfly    butterflyState
	demon        demonState
	fox          foxState
	gambler      gamblerState
	merchant     merchantState
	elder        elderState // 長老 and 村長 (chief): one set of rules, role_elder.go
	wildchild    wildChildState
	halfblood    halfBloodState
	bear         bearState
	rogue        rogueState
	cupid        cupidState
	succubus     succubusState
	lovers       loversState // shared: 丘比特's and 魅魔's pairs (role_cupid.go)
}
