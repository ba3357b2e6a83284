#!/usr/bin/env python3
# Writes every JSON Schema of protocol v1 under docs/schema/ (run from anywhere; edit here, not the files).

import json, os
root = os.path.dirname(os.path.abspath(__file__))
D = '$schema'
SCHEMA = 'https://json-schema.org/draft/2020-12/schema'

def write(path, obj):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, 'w') as f:
        json.dump(obj, f, indent=2)
        f.write('\n')

def obj(props, required=(), additional=False, title=None):
    o = {'type': 'object', 'properties': props, 'required': list(required), 'additionalProperties': additional}
    if title:
        o = {D: SCHEMA, 'title': title, **o}
    return o

S = {'type': 'string'}
def s(minl=None, maxl=None):
    o = {'type': 'string'}
    if minl is not None: o['minLength'] = minl
    if maxl is not None: o['maxLength'] = maxl
    return o
I = {'type': 'integer'}
B = {'type': 'boolean'}
N = {'type': 'number'}
def ref(p): return {'$ref': p}
def arr(items, **kw): return {'type': 'array', 'items': items, **kw}
def const(v): return {'const': v}
def enum(*v): return {'enum': list(v)}
nullable = lambda sch: {'anyOf': [sch, {'type': 'null'}]}

# --- shared definitions (docs/schema/defs)
write('defs/id.json', {D: SCHEMA, 'title': 'request id', 'anyOf': [s(1, 64), I]})
write('defs/ref.json', {D: SCHEMA, 'title': 'game or seek id', **s(1, 64)})
write('defs/variant.json', {D: SCHEMA, 'title': 'variant', **enum('chessence', 'chesica', 'sniderman')})
write('defs/rules.json', {D: SCHEMA, 'title': 'rule set', **enum('house', 'strict')})
write('defs/seat.json', {D: SCHEMA, 'title': 'seat', **enum('white', 'black', 'player0', 'player1')})
write('defs/side.json', {D: SCHEMA, 'title': 'side to move', **enum('white', 'black', 'odd', 'even')})
write('defs/player.json', obj({'id': s(1, 64), 'name': s(1, 20)}, ['id', 'name'], title='player'))
write('defs/board.json', obj({
    'files': {'type': 'integer', 'minimum': 1, 'maximum': 8},
    'ranks': {'type': 'integer', 'minimum': 1, 'maximum': 9},
    'squares': arr(s(0, 3), maxItems=81),
    'reserves': arr({'type': 'integer', 'minimum': 0}, minItems=2, maxItems=2)},
    ['files', 'ranks', 'squares', 'reserves'], title='board'))
write('defs/result.json', obj({
    'winner': {'anyOf': [ref('seat.json'), ref('side.json'), {'type': 'null'}]},
    'reason': enum('checkmate', 'stalemate', 'threefold_repetition', 'hundred_ply_rule',
                   'all_captured', 'no_legal_moves', 'object_decided', 'round_over',
                   'resignation', 'agreement', 'match_won', 'aborted', 'timeout', 'abandoned',
                   # issue 43: a tournament game's player missed their first move
                   'no_start')},
    ['winner', 'reason'], title='result'))
rating_bound = {'type': 'integer', 'minimum': 0, 'maximum': 4000}
# Clocks (issue 13): a time control (real time, correspondence, or null for unlimited) and the two
# clocks at an event: milliseconds left by seat, the seat whose clock runs, and when the server took
# the reading (`at`, Unix milliseconds; issue 22).
write('defs/time_control.json', {D: SCHEMA, 'title': 'time control', 'anyOf': [
    obj({'initial': {'type': 'integer', 'minimum': 0, 'maximum': 10800},
         'increment': {'type': 'integer', 'minimum': 0, 'maximum': 180}}, ['initial', 'increment']),
    obj({'days': enum(1, 2, 3, 5, 7, 10, 14)}, ['days']),
    {'type': 'null'}]})
ms_left = {'type': 'integer', 'minimum': 0}
write('defs/clock.json', {D: SCHEMA, 'title': 'clocks', 'type': 'object',
    'properties': {'white': ms_left, 'black': ms_left, 'player0': ms_left, 'player1': ms_left,
                   'running': nullable(ref('seat.json')),
                   'at': {'type': 'integer', 'minimum': 0}},
    'required': ['running'], 'additionalProperties': False,
    'oneOf': [{'required': ['white', 'black']}, {'required': ['player0', 'player1']}]})
write('defs/seek.json', obj({
    'seek_id': ref('ref.json'), 'variant': ref('variant.json'), 'rules': ref('rules.json'),
    'side': enum('white', 'black', 'random'),
    'rounds': enum(1, 3, 5, 7, 9), 'private': B, 'clock': ref('time_control.json'),
    'creator': ref('player.json'), 'created_at': {'type': 'integer', 'minimum': 0},
    # issue 15: a private invitation's end of life (unix seconds)
    'expires_at': {'type': 'integer', 'minimum': 0},
    # issue 16: rated seeks, the accepter's rating range, the creator's shown rating
    'rated': B, 'rating_min': rating_bound, 'rating_max': rating_bound,
    'rating': {'type': 'integer'}, 'provisional': B},
    ['seek_id', 'variant', 'rules', 'side', 'private', 'clock', 'creator', 'created_at'], title='seek'))
write('defs/game_summary.json', obj({
    'game_id': ref('ref.json'), 'variant': ref('variant.json'), 'rules': ref('rules.json'),
    'players': {'type': 'object', 'additionalProperties': s(0, 20)},
    'moves': {'type': 'integer', 'minimum': 0}, 'spectators': {'type': 'integer', 'minimum': 0},
    'clock': ref('time_control.json'), 'rated': B,
    # issue 25: the seat the computer plays and its level (only in a game against the computer)
    'bot': obj({'seat': ref('seat.json'), 'level': {'type': 'integer', 'minimum': 1, 'maximum': 8}},
               ['seat', 'level'])},
    ['game_id', 'variant', 'rules', 'players', 'moves', 'spectators', 'clock'], title='game summary'))
# issue 16: a rating before and after a rated game, numbers unrounded
rating_value = obj({'rating': N, 'rd': {'type': 'number', 'minimum': 0},
                    'volatility': {'type': 'number', 'minimum': 0}}, ['rating', 'rd', 'volatility'])
write('defs/rating_change.json', {D: SCHEMA, 'title': 'rating change of a rated game', **arr(obj({
    'seat': ref('seat.json'), 'player_id': s(1, 64), 'before': rating_value, 'after': rating_value},
    ['seat', 'player_id', 'before', 'after']), minItems=2, maxItems=2)})
write('defs/account.json', obj({'username': s(3, 20), 'admin': B}, ['username', 'admin'], title='account'))
legal = arr(s(1, 64))
# issue 15: Chessence only, every man's square -> what it may move as now (r, b, n in that order)
powers = {'type': 'object', 'additionalProperties': enum('', 'r', 'b', 'n', 'rb', 'rn', 'bn', 'rbn')}
position_props = {'fen': s(1, 200), 'board': ref('board.json'),
                  'to_move': nullable(ref('side.json')), 'legal': legal, 'in_check': B}
position_req = ['fen', 'board', 'to_move', 'legal', 'in_check']
# issue 23: chat is not a room event; a line belongs to the players' or the spectators' channel.
chat_line = obj({'channel': enum('players', 'spectators'), 'from': s(0, 20), 'player_id': s(0, 64),
                 'seat': nullable(ref('../defs/seat.json')), 'text': s(1, 2000), 'at': s(1, 40)},
                ['channel', 'from', 'player_id', 'seat', 'text', 'at'])
# issue 43: a tournament's chat has one channel: its lines name their writer only.
tournament_chat_line = obj({'player_id': s(1, 64), 'from': s(0, 20), 'text': s(1, 2000), 'at': s(1, 40)},
                           ['player_id', 'from', 'text', 'at'])
write('defs/match.json', obj({
    'rounds': enum(1, 3, 5, 7, 9), 'round': {'type': 'integer', 'minimum': 1},
    'phase': enum('naming', 'choosing', 'playing', 'finished'),
    'namer': ref('seat.json'), 'chooser': ref('seat.json'),
    'odd': nullable(ref('seat.json')), 'even': nullable(ref('seat.json')),
    'objects': arr(obj({'object': {'type': 'integer', 'minimum': 1, 'maximum': 10}, 'text': S, 'available': B},
                       ['object', 'text', 'available']), minItems=10, maxItems=10),
    'object': nullable({'type': 'integer', 'minimum': 1, 'maximum': 10}),
    'score': arr({'type': 'integer', 'minimum': 0}, minItems=2, maxItems=2),
    'records': arr(obj({'start': S, 'object': {'type': 'integer', 'minimum': 0, 'maximum': 10},
                        'odd': nullable(ref('seat.json')), 'moves': legal,
                        'winner': nullable(ref('seat.json')), 'why': s(1, 300)},
                       ['start', 'object', 'odd', 'moves', 'winner'])),
    'winner': nullable(ref('seat.json'))},
    ['rounds', 'round', 'phase', 'namer', 'chooser', 'odd', 'even', 'objects', 'object', 'score', 'records', 'winner'],
    title='Sniderman match'))

# --- room events. events/<kind>.json: the stored form (protocol/events.h), what the store keeps and
# what a catch-up sends; events/wire/<kind>.json: the same with the fields a live broadcast adds (the
# position after a move, an object's text), optional because a catch-up carries only `fen` of a move.
seat_ref = ref('../defs/seat.json')
objects_range = {'type': 'integer', 'minimum': 1, 'maximum': 10}
round_no = {'type': 'integer', 'minimum': 1}
clock_ref = ref('../defs/clock.json')
lag = {'type': 'integer', 'minimum': 0}
events = {
    'move': ({'move': s(1, 64), 'by': ref('../defs/side.json'), 'player': seat_ref,
              'ply': {'type': 'integer', 'minimum': 1}, 'clock': clock_ref, 'lag_ms': lag},
             ['move', 'by', 'ply']),
    'game_over': ({'result': ref('../defs/result.json'), 'clock': clock_ref}, ['result']),
    'draw_offered': ({'by': seat_ref}, ['by']),
    'draw_declined': ({'by': seat_ref}, ['by']),
    'rematch_offered': ({'by': seat_ref}, ['by']),
    'rematch_started': ({'new_game_id': ref('../defs/ref.json')}, ['new_game_id']),
    # legacy: logs stored before issue 23 hold chat lines as events (replayed as nothing)
    'chat': ({'from': s(0, 20), 'player_id': s(0, 64), 'seat': nullable(seat_ref),
              'text': s(1, 2000), 'at': s(1, 40)},
             ['from', 'seat', 'text', 'at']),
    # issue 23: a player opens or closes the spectators' chat
    'spectator_chat': ({'by': seat_ref, 'open': B}, ['by', 'open']),
    'round_started': ({'round': round_no, 'fen': s(1, 200), 'namer': seat_ref}, ['round', 'fen', 'namer']),
    'object_named': ({'by': seat_ref, 'object': objects_range, 'clock': clock_ref, 'lag_ms': lag},
                     ['by', 'object']),
    'side_chosen': ({'by': seat_ref, 'odd': seat_ref, 'even': seat_ref, 'clock': clock_ref, 'lag_ms': lag},
                    ['by', 'odd', 'even']),
    'round_over': ({'round': round_no, 'winner': enum('odd', 'even'), 'winner_player': seat_ref,
                    'score': arr({'type': 'integer', 'minimum': 0}, minItems=2, maxItems=2)},
                   ['round', 'winner', 'winner_player', 'score']),
    # issue 13: takebacks and more time
    'takeback_offered': ({'by': seat_ref}, ['by']),
    'takeback_declined': ({'by': seat_ref}, ['by']),
    'takeback': ({'by': seat_ref, 'plies': enum(1, 2), 'clock': clock_ref}, ['by', 'plies']),
    'moretime': ({'by': seat_ref, 'ms': {'type': 'integer', 'minimum': 1}, 'clock': clock_ref},
                 ['by', 'ms', 'clock']),
    # issue 43: a tournament game's player went berserk (the clocks after it)
    'berserk': ({'by': seat_ref, 'clock': clock_ref}, ['by', 'clock']),
}
live_position = {'fen': s(1, 200), 'board': ref('../defs/board.json'),
                 'to_move': nullable(ref('../defs/side.json')), 'legal': legal, 'in_check': B,
                 'powers': powers}
live_position_req = ['fen', 'board', 'to_move', 'legal', 'in_check']
derived = {
    'move': live_position,
    'side_chosen': live_position,
    'round_started': {'board': ref('../defs/board.json'), 'available_objects': arr(objects_range)},
    'object_named': {'text': s(1, 200)},
    'takeback': live_position,
    'round_over': {'why': s(1, 300)},
}
for kind, (props, req) in events.items():
    write(f'events/{kind}.json', obj({'kind': const(kind), **props}, ['kind'] + req, title=f'event {kind}'))
    wire = obj({'kind': const(kind), **props, **derived.get(kind, {})}, ['kind'] + req,
               title=f'event {kind} as sent')
    write(f'events/wire/{kind}.json', json.loads(json.dumps(wire).replace('"../defs/', '"../../defs/')))
write('events/event.json', {D: SCHEMA, 'title': 'room event (stored form)', 'oneOf': [ref(f'{k}.json') for k in events]})
write('events/wire/event.json', {D: SCHEMA, 'title': 'room event as sent', 'oneOf': [ref(f'{k}.json') for k in events]})

# --- client messages
gid = {'game_id': ref('../defs/ref.json')}
tid = {'tournament_id': ref('../defs/ref.json')}
idp = {'id': ref('../defs/id.json')}
client = {
    'hello': ({'protocol': {'type': 'integer', 'minimum': 0}, 'token': s(1, 128), 'name': s(1, 64)}, ['protocol']),
    'set_name': ({'name': s(1, 64)}, ['name']),
    'lobby_subscribe': ({}, []),
    'lobby_unsubscribe': ({}, []),
    # issue 24: a page of the public games in progress, newest first (defaults: offset 0, limit 50)
    'lobby_games': ({'offset': {'type': 'integer', 'minimum': 0},
                     'limit': {'type': 'integer', 'minimum': 1, 'maximum': 100}}, []),
    'seek_create': ({'variant': ref('../defs/variant.json'), 'rules': ref('../defs/rules.json'),
                     'side': enum('white', 'black', 'odd', 'even', 'random'), 'rounds': enum(1, 3, 5, 7, 9),
                     'private': B, 'clock': ref('../defs/time_control.json'), 'rated': B,
                     'rating_min': {'type': 'integer', 'minimum': 0, 'maximum': 4000},
                     'rating_max': {'type': 'integer', 'minimum': 0, 'maximum': 4000},
                     # issue 25: a game against the computer at a level (then `level` is required)
                     'opponent': enum('human', 'computer'),
                     'level': {'type': 'integer', 'minimum': 1, 'maximum': 8}}, ['variant']),
    'seek_cancel': ({'seek_id': ref('../defs/ref.json')}, ['seek_id']),
    'seek_accept': ({'seek_id': ref('../defs/ref.json')}, ['seek_id']),
    'quick_pair': ({'variant': ref('../defs/variant.json'), 'rules': ref('../defs/rules.json'),
                    'rounds': enum(1, 3, 5, 7, 9), 'clock': ref('../defs/time_control.json'), 'rated': B},
                   ['variant']),
    'watch': ({**gid, 'since': {'type': 'integer', 'minimum': 0}, 'full': B, 'key': s(1, 64)}, ['game_id']),
    'unwatch': (gid, ['game_id']),
    'move': ({**gid, 'move': s(1, 64)}, ['game_id', 'move']),
    'resign': (gid, ['game_id']),
    'draw_offer': (gid, ['game_id']),
    'draw_accept': (gid, ['game_id']),
    'draw_decline': (gid, ['game_id']),
    'rematch_offer': (gid, ['game_id']),
    'rematch_accept': (gid, ['game_id']),
    'name_object': ({**gid, 'object': {'type': 'integer', 'minimum': 1, 'maximum': 10}}, ['game_id', 'object']),
    'choose_side': ({**gid, 'side': enum('odd', 'even')}, ['game_id', 'side']),
    'chat': ({**gid, 'text': s(1, 1200)}, ['game_id', 'text']),
    # issue 13: the life of a game
    'abort': (gid, ['game_id']),
    'claim_victory': (gid, ['game_id']),
    'claim_draw': (gid, ['game_id']),
    'takeback_offer': (gid, ['game_id']),
    'takeback_accept': (gid, ['game_id']),
    'takeback_decline': (gid, ['game_id']),
    'moretime': (gid, ['game_id']),
    # issue 23
    'spectator_chat': ({**gid, 'open': B}, ['game_id', 'open']),
    # issue 43: a tournament game's player goes berserk
    'berserk': (gid, ['game_id']),
    # issue 16: accounts and moderation
    'register': ({'username': s(3, 20), 'password': s(8, 256)}, ['username', 'password']),
    'login': ({'username': s(3, 20), 'password': s(1, 256)}, ['username', 'password']),
    'logout': ({'everywhere': B}, []),
    'change_password': ({'password': s(1, 256), 'new_password': s(8, 256)}, ['password', 'new_password']),
    'admin_mute': ({'player_id': s(1, 64), 'muted': B}, ['player_id']),
    'admin_close': ({'player_id': s(1, 64), 'closed': B}, ['player_id']),
    # issue 43: tournaments (docs/protocol.md, "Tournaments")
    'tournament_watch': (tid, ['tournament_id']),
    'tournament_unwatch': (tid, ['tournament_id']),
    'tournament_join': ({**tid, 'code': s(1, 64)}, ['tournament_id']),
    'tournament_withdraw': (tid, ['tournament_id']),
    'tournament_pause': (tid, ['tournament_id']),
    'tournament_chat': ({**tid, 'text': s(1, 1200)}, ['tournament_id', 'text']),
    'ping': ({}, []),
}
for t, (props, req) in client.items():
    write(f'client/{t}.json', obj({'type': const(t), **idp, **props}, ['type'] + req, title=f'client {t}'))

errors = ['hello_required', 'unsupported_protocol', 'bad_json', 'unknown_type', 'missing_field', 'bad_field',
          'frame_too_large', 'rate_limited', 'bad_token', 'bad_name', 'no_such_seek', 'own_seek', 'no_such_game',
          'not_a_player', 'not_your_turn', 'illegal_move', 'game_over', 'not_supported', 'no_draw_offer',
          'no_rematch_offer', 'wrong_phase', 'object_used', 'chat_too_long',
          # issue 13
          'no_takeback_offer', 'claim_too_early',
          # issue 16: accounts, moderation, rated seeks
          'name_taken', 'bad_credentials', 'weak_password', 'account_required', 'already_registered',
          'forbidden', 'account_closed', 'muted', 'no_such_player', 'outside_rating_range',
          # issue 23
          'chat_closed',
          # issue 24
          'server_restarting',
          # issue 25
          'bots_busy',
          # issue 43
          'no_such_tournament', 'tournament_finished', 'already_joined', 'not_joined', 'wrong_code',
          'pause_wait',
          'berserk_not_allowed', 'berserk_after_first_move', 'already_berserk',
          'internal_error']
snapshot_props = {
    **gid, 'version': {'type': 'integer', 'minimum': 0}, 'variant': ref('../defs/variant.json'),
    'rules': ref('../defs/rules.json'), 'private': B,
    'players': arr(obj({'seat': ref('../defs/seat.json'), 'id': s(1, 64), 'name': s(0, 20), 'online': B,
                        'lag_ms': nullable({'type': 'integer', 'minimum': 0}),
                        'claim_in': nullable({'type': 'integer', 'minimum': 0}),
                        # issue 25: the computer's seat says so, with its level
                        'bot': const(True), 'level': {'type': 'integer', 'minimum': 1, 'maximum': 8}},
                       ['seat', 'id', 'name', 'online']), minItems=2, maxItems=2),
    'start_fen': s(1, 200), 'moves': legal, 'positions': arr(s(1, 200), minItems=1),
    'fen': s(1, 200), 'board': ref('../defs/board.json'), 'to_move': nullable(ref('../defs/side.json')),
    'legal': legal, 'in_check': B, 'powers': powers,
    'result': nullable(ref('../defs/result.json')),
    'draw_offer': nullable(ref('../defs/seat.json')), 'rematch_offer': nullable(ref('../defs/seat.json')),
    'takeback_offer': nullable(ref('../defs/seat.json')),
    'time_control': ref('../defs/time_control.json'), 'clock': nullable(ref('../defs/clock.json')),
    'abort_in': nullable({'type': 'integer', 'minimum': 0}),
    'rematch_game_id': nullable(ref('../defs/ref.json')),
    'spectators': {'type': 'integer', 'minimum': 0},
    'chat': arr(chat_line), 'spectator_chat': B,
    'match': nullable(ref('../defs/match.json')),
    'rated': B, 'rating_change': nullable(ref('../defs/rating_change.json')),
    'access_key': s(32, 32),
    # issue 43: a tournament game's tournament (only then), whether its players may berserk, and
    # which seats did (by seat index)
    'tournament_id': s(1, 64), 'berserkable': B,
    'berserk': arr(B, minItems=2, maxItems=2),
}
# issue 43: a tournament's line of the standings, and the tournament itself
NN = {'type': 'integer', 'minimum': 0}
write('defs/tournament_row.json', obj({
    'player_id': s(1, 64), 'name': s(1, 64), 'rank': {'type': 'integer', 'minimum': 1}, 'score': NN,
    'rating': NN, 'performance': I, 'games': NN, 'fire': B,
    'status': enum('active', 'paused', 'withdrawn'), 'sheet': S,
    'game_id': ref('ref.json')},
    ['player_id', 'name', 'rank', 'score', 'rating', 'performance', 'games', 'fire', 'status', 'sheet'],
    title='tournament standings line'))
DUELIST = obj({'player_id': s(1, 64), 'name': s(1, 64), 'rank': {'type': 'integer', 'minimum': 1},
               'rating': NN}, ['player_id', 'name', 'rank', 'rating'])
write('defs/tournament_duel.json', obj({'game_id': ref('ref.json'), 'first': DUELIST, 'second': DUELIST},
                                       ['game_id', 'first', 'second'], title='tournament game in progress'))
write('defs/tournament.json', obj({
    'id': s(1, 64), 'kind': enum('arena'), 'name': s(1, 100), 'variant': ref('variant.json'),
    'clock': ref('time_control.json'), 'minutes': {'type': 'integer', 'minimum': 1}, 'rated': B,
    'berserkable': B, 'private': B, 'created_by': {'type': 'string', 'maxLength': 64},
    'status': enum('created', 'started', 'finished'), 'starts_at': I, 'ends_at': I,
    'seconds_to_start': NN, 'seconds_to_finish': NN, 'pairings_closed': B, 'players': NN},
    ['id', 'kind', 'name', 'variant', 'clock', 'minutes', 'rated', 'berserkable', 'private',
     'created_by', 'status', 'starts_at', 'ends_at', 'pairings_closed', 'players'],
    title='tournament'))

server = {
    'welcome': ({'protocol': const(1), 'server': s(1, 100), 'player': ref('../defs/player.json'),
                 'token': s(16, 128), 'games': arr(ref('../defs/ref.json')),
                 'account': ref('../defs/account.json')},
                ['protocol', 'server', 'player', 'token', 'games']),
    'player': ({'player': ref('../defs/player.json')}, ['player']),
    'error': ({'code': enum(*errors), 'message': s(1, 500), **gid}, ['code', 'message']),
    # issue 24: `lobby` is only the reply to lobby_subscribe: every open public seek, the first page of
    # the games in progress (newest first) and how many games there are in all; deltas follow.
    'lobby': ({'seeks': arr(ref('../defs/seek.json')), 'games': arr(ref('../defs/game_summary.json')),
               'games_total': {'type': 'integer', 'minimum': 0}},
              ['seeks', 'games', 'games_total']),
    'lobby_games': ({'offset': {'type': 'integer', 'minimum': 0}, 'total': {'type': 'integer', 'minimum': 0},
                     'games': arr(ref('../defs/game_summary.json'))},
                    ['offset', 'total', 'games']),
    'seek_added': ({'seek': ref('../defs/seek.json')}, ['seek']),
    'seek_removed': ({'seek_id': ref('../defs/ref.json')}, ['seek_id']),
    'game_added': ({'game': ref('../defs/game_summary.json')}, ['game']),
    'game_removed': (gid, ['game_id']),
    'game_changed': ({'games': arr(ref('../defs/game_summary.json'))}, ['games']),
    'seek_created': ({'seek': ref('../defs/seek.json')}, ['seek']),
    'seek_cancelled': ({'seek_id': ref('../defs/ref.json')}, ['seek_id']),
    'game_started': ({**gid, 'variant': ref('../defs/variant.json'), 'you': ref('../defs/seat.json')},
                     ['game_id', 'variant', 'you']),
    # `powers` (issue 15), `rated` and `rating_change` (issue 16) may be absent.
    'snapshot': (snapshot_props, [k for k in snapshot_props
                                  if k not in ('powers', 'rated', 'rating_change', 'access_key', 'tournament_id')]),
    'event': ({**gid, 'version': {'type': 'integer', 'minimum': 1}, 'event': ref('../events/wire/event.json')},
              ['game_id', 'version', 'event']),
    'events': ({**gid, 'version': {'type': 'integer', 'minimum': 0},
                'events': arr(obj({'version': {'type': 'integer', 'minimum': 1},
                                   'event': ref('../events/wire/event.json')}, ['version', 'event'])),
                'position': obj({**live_position, 'clock': nullable(ref('../defs/clock.json'))},
                                live_position_req),
                'chat': arr(chat_line)},
               ['game_id', 'version', 'events', 'position']),
    # issue 23: one chat line, to the readers of its channel
    'chat': ({**gid, 'line': chat_line}, ['game_id', 'line']),
    'spectators': ({**gid, 'count': {'type': 'integer', 'minimum': 0}}, ['game_id', 'count']),
    'presence': ({**gid, 'online': {'type': 'object', 'additionalProperties': B},
                  'lag': {'type': 'object', 'additionalProperties': nullable({'type': 'integer', 'minimum': 0})},
                  'claim_in': {'type': 'object', 'additionalProperties': {'type': 'integer', 'minimum': 0}}},
                 ['game_id', 'online']),
    'pong': ({}, []),
    # issue 24: the server is shutting down; reconnect within reconnect_ms
    'server_restart': ({'reconnect_ms': {'type': 'integer', 'minimum': 0}}, ['reconnect_ms']),
    # issue 22: a game request with an id is acknowledged once carried out.
    'ack': ({**gid, 'version': {'type': 'integer', 'minimum': 0}}, []),
    # issue 16: accounts, moderation and ratings
    'signed_in': ({'player': ref('../defs/player.json'), 'token': s(16, 128),
                   'account': ref('../defs/account.json'), 'games': arr(ref('../defs/ref.json'))},
                  ['player', 'token', 'account', 'games']),
    'signed_out': ({'reason': enum('logout', 'logout_everywhere', 'registered', 'password_changed',
                                   'account_closed')}, ['reason']),
    'password_changed': ({}, []),
    'account_status': ({'player': ref('../defs/player.json'), 'muted': B, 'closed': B},
                       ['player', 'muted', 'closed']),
    'rating_change': ({**gid, 'changes': ref('../defs/rating_change.json')}, ['game_id', 'changes']),
    # issue 43: tournaments
    'tournament': ({'tournament': ref('../defs/tournament.json'),
                    'standings': arr(ref('../defs/tournament_row.json')),
                    'duels': arr(ref('../defs/tournament_duel.json'), maxItems=6),
                    'version': {'type': 'integer', 'minimum': 0},
                    'me': {'allOf': [ref('../defs/tournament_row.json')]},
                    'chat': arr(tournament_chat_line)},
                   ['tournament', 'standings', 'duels', 'version']),
    'tournament_standings': ({**tid, 'version': {'type': 'integer', 'minimum': 1},
                              'players': {'type': 'integer', 'minimum': 0},
                              'status': enum('created', 'started', 'finished'),
                              'changed': arr(ref('../defs/tournament_row.json')),
                              'duels': arr(ref('../defs/tournament_duel.json'), maxItems=6)},
                             ['tournament_id', 'version', 'players', 'status', 'changed', 'duels']),
    'tournament_paired': ({**tid, **gid, 'you': ref('../defs/seat.json')},
                          ['tournament_id', 'game_id', 'you']),
    'tournament_finished': ({**tid, 'podium': arr(ref('../defs/tournament_row.json'), maxItems=3)},
                            ['tournament_id', 'podium']),
    'tournament_chat': ({**tid, 'line': tournament_chat_line}, ['tournament_id', 'line']),
}
for t, (props, req) in server.items():
    write(f'server/{t}.json', obj({'type': const(t), **idp, **props}, ['type'] + req, title=f'server {t}'))

# --- HTTP answers that are not protocol messages (issue 25): GET/POST /api/games/<id>/analysis
EVAL = {'anyOf': [obj({'cp': I}, ['cp']), obj({'mate': I}, ['mate']),
                  obj({'result': enum('win', 'loss', 'draw')}, ['result'])]}
WIN = {'type': 'number', 'minimum': 0, 'maximum': 100}
POINT = obj({'eval': EVAL, 'win': WIN}, ['eval', 'win'])
PLY = obj({'ply': {'type': 'integer', 'minimum': 1}, 'move': s(1), 'by': ref('../defs/seat.json'),
           'eval': EVAL, 'win': WIN, 'best': s(1), 'pv': arr(s(1), minItems=1),
           'judgement': {'enum': [None, 'inaccuracy', 'mistake', 'blunder']},
           'round': {'type': 'integer', 'minimum': 1}},
          ['ply', 'move', 'by', 'eval', 'win', 'best', 'pv', 'judgement'])
ROUND = obj({'round': {'type': 'integer', 'minimum': 1}, 'fen': s(1), 'object': {'type': 'integer', 'minimum': 1, 'maximum': 10},
             'odd': ref('../defs/seat.json'), 'even': ref('../defs/seat.json'), 'start': POINT},
            ['round', 'fen', 'object', 'odd', 'even', 'start'])
ACCURACY = {'anyOf': [WIN, {'type': 'null'}]}
write('http/analysis.json', {D: SCHEMA, 'title': 'a game analysis (GET or POST /api/games/<id>/analysis)', 'oneOf': [
    obj({'status': enum('queued', 'running'),
         'positions': obj({'done': {'type': 'integer', 'minimum': 0}, 'total': {'type': 'integer', 'minimum': 0}},
                          ['done', 'total'])}, ['status', 'positions']),
    obj({'status': const('done')}, ['status']),
    obj({'status': const('done'), 'game_id': ref('../defs/ref.json'), 'variant': ref('../defs/variant.json'),
         'nodes': {'type': 'integer', 'minimum': 1}, 'exact': const(True),
         'start': {'anyOf': [POINT, {'type': 'null'}]}, 'rounds': arr(ROUND), 'plies': arr(PLY),
         'accuracy': obj({'white': ACCURACY, 'black': ACCURACY, 'player0': ACCURACY, 'player1': ACCURACY})},
        ['status', 'game_id', 'variant', 'plies', 'accuracy']),
]})

# --- GET /api/puzzles and /api/puzzles/<game>/daily|random|<id> (issue 25, docs/puzzles.md); the
# bank file's entries are the same objects.
PUZZLE_COMMON = {'id': s(1, 64), 'rules': ref('../defs/rules.json'), 'fen': s(1),
                 'solution': arr(s(1, 64), minItems=1),
                 'date': s(10, 10)}  # the daily one: "2026-11-27"
write('http/puzzle.json', {D: SCHEMA, 'title': 'a puzzle (GET /api/puzzles/<game>/daily|random|<id>)', 'oneOf': [
    obj({**PUZZLE_COMMON, 'game': enum('chessence', 'chesica'), 'to_move': enum('white', 'black'),
         'eval': {'anyOf': [obj({'cp': I}, ['cp']), obj({'mate': {'type': 'integer', 'minimum': 1}}, ['mate'])]},
         'second': obj({'cp': I}, ['cp']), 'nodes': {'type': 'integer', 'minimum': 1}},
        ['id', 'game', 'rules', 'fen', 'to_move', 'solution', 'eval', 'second', 'nodes']),
    obj({**PUZZLE_COMMON, 'game': const('sniderman'), 'to_move': enum('odd', 'even'),
         'object': {'type': 'integer', 'minimum': 1, 'maximum': 10}, 'object_text': s(1),
         'eval': obj({'result': const('win')}, ['result'])},
        ['id', 'game', 'rules', 'fen', 'to_move', 'object', 'object_text', 'solution', 'eval']),
]})
write('http/puzzle_counts.json', obj({'games': obj({
    'chessence': {'type': 'integer', 'minimum': 0}, 'chesica': {'type': 'integer', 'minimum': 0},
    'sniderman': {'type': 'integer', 'minimum': 0}}, ['chessence', 'chesica', 'sniderman'])},
    ['games'], title='the puzzles of each game (GET /api/puzzles)'))
write('http/error.json', obj({'code': s(1), 'error': s(1)}, ['code', 'error'],
                             title='an HTTP API error (puzzles, analysis): a stable code and a sentence'))
print('ok')
