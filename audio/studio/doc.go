// Package studio is the table's recording studio (錄音室): the venue
// records its own judge, clip by clip, from the judge console's studio page
// (console/web/studio.html), and the table speaks with the result.
//
// # Processing
//
// Process turns one upload into a clip of a voice pack: decoded (Decode:
// 16-bit PCM WAV, WebM/Opus or Ogg/Opus from a browser's MediaRecorder, or
// MP3; at most MaxUpload bytes and MaxDuration long, from MinRate), mixed
// to mono, resampled to the pack's 16 kHz, trimmed to 60 ms of silence
// before and after the voice, levelled to the default pack's loudness
// (TargetDBFS, the peak kept under -1 dBFS), and checked with voice check's
// rules (package check: clipping, measured on the take as recorded;
// silence; length against the clip's suggested length; level).
//
// # The folder
//
// A Studio lives in one folder (config voice.studio_dir, by default "voice"
// beside the journals: /var/lib/wolftable/voice):
//
//	studio/          the pack being recorded: pack.txt and <clip id>.wav
//	packs/<time>/    the copy the table speaks with, made by Activate
//	active.json      which copy, and whether the default pack fills its gaps
//
// A take is written to a temporary file, synced and renamed over the
// clip's name (internal/atomicfile): a refused upload, a take that fails
// the check (*CheckError), a power cut in the middle, never damage a good
// take. Activate copies the usable takes (hard links: a take is never
// written in place) into a new folder of packs/ and then renames
// active.json over the old one, so the table's voice is always one whole
// pack; Deactivate removes active.json (the table speaks the default pack
// again). ActivePack reads active.json for the table (`wolftable serve`,
// `wolftable voice say`); a pack named in the config's [voice] pack comes
// before it.
//
// Export writes the working pack as one zip archive, Import takes one back
// (every clip file processed as an upload; the rest skipped with reasons);
// ImportContext stops between two clips when its context ends.
//
// # API
//
// Handler serves, behind the console's judge session and CSRF check:
//
//	GET  /api/judge/voice/clips              Listing: every clip with its text, pinyin, state and notes
//	PUT  /api/judge/voice/clips/{id}         the recording as the body → Result (the check, at once)
//	GET  /api/judge/voice/clips/{id}/audio   the take (WAV); ?pack=default: the default pack's clip
//	POST /api/judge/voice/name               {"name", "recorded_by"}: the working pack's pack.txt
//	POST /api/judge/voice/activate           {"fill": bool} → Active
//	POST /api/judge/voice/deactivate         back to the default pack
//	GET  /api/judge/voice/export             the working pack as a zip archive
//	POST /api/judge/voice/import             a zip archive as the body → Imported
//
// Errors answer {"error": the judge's words, "code"}: 404 unknown_clip,
// 413 too_large, 422 bad_upload (not audio, empty, too long, a low rate,
// silence) or check_failed (with "result"), 409 incomplete or cancelled
// (the request's context ended: the console starts a game; an import's
// reply lists the clips saved before), 400 bad_request.
package studio
