// Package desk is the tournament desk's library (issue 16): what a table
// and the organiser's desk share, without the broker itself.
//
//   - The table registry in the desk's data folder (AddTable, RenewTable,
//     ReadCreds, Tables): each table has its own NKEY (its NATS identity;
//     no password travels), may publish only under its own subject prefix
//     and subscribe only to its own inbox prefix (InboxPrefix), and signs
//     its records with its own ed25519 key, registered here. The link is
//     TLS to the desk's own certificate (DeskCert), pinned by its public
//     key in every credentials file (TLSPin, ClientTLS, Dial).
//   - Subjects: wolftable.table.<name>.status|start|end|penalty|record|ask
//     (Subject). Status is the public view of a table (nothing hidden),
//     bounded and checked on arrival (MaxLiveBytes, Status.Check).
//   - The table's side: Publisher. The journals folder is the outbox: a
//     finished journal without a "<file>.sent" or "<file>.refused" marker
//     is (re)sent with JetStream at connect, after a reconnect and when a
//     game ends; then the table asks the desk (Ask, Verdict) and writes
//     .sent only when the desk holds that record for this table, .refused
//     with the desk's reason when it refused it (Resend puts it back).
//     Publishing never blocks the game.
//   - The desk's side: Store (records by final hash, verified: chain,
//     replay, and the signature key must be the table's registered key;
//     refused records are kept with their reason, within each table's
//     quota; a table's rounds given at arrival, a late game held for the
//     operator) and the scoring packs and Standings, a pure function of a
//     pack and the stored games.
//   - The tournament (issue 29): the player registry (players.go: DATA/
//     players.json, imported from Excel's CSV, every bad line reported
//     with its number and nothing taken then; players.csv maps a table's
//     seat to a player id until the tables draw seats), the organiser's
//     rounds (rounds.go: opened with tables and games each, a game placed
//     by the round open at its table when the desk heard it start; extra
//     games held as late ones; voided games left out of the standings),
//     each round's seating plan (seating.go: ProposePlan spreads
//     opponents and seats, a locked plan names the round's players by
//     seat), the desk's discipline (discipline.go: warnings, deductions,
//     disqualifications; StandingsWith applies them, ties shown as ties),
//     the organiser's log (orglog.go), a table rekeyed or removed
//     (registry.go: its old keys still prove its stored records) and a
//     refused record re-admitted once its key is right (Readmit).
//
// The broker (an embedded nats-server, or a venue's cluster) and the web
// pages are in desk/deskserver, so that the table's daemon does not link
// the server.
package desk
