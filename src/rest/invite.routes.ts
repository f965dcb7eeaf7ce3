import { Router } from 'express';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AccessService } from '../domain/access/access.service';
import type { Principal } from '../domain/access/principal';
import { SignupTokenService } from '../domain/access/signup-token.service';

/** Whoever opens an invite link: no credentials, no permissions (the service's public methods check none). */
const visitor: Principal = { kind: 'system', name: 'public-signup', userId: null, isAdmin: false, rootRoleId: null };

/**
 * `/invite`: the public side of signup tokens (issue 10), outside `/api` and without credentials, as in Unleash.
 * `GET /invite/:secret/validate` answers 200 while the link can be used and 400 otherwise; `POST /invite/:secret/signup`
 * creates the user (201).
 */
export function inviteRouter(em: EntityManager, publicUrl: string): Router {
  const r = Router();
  const tokens = () => {
    const fork = em.fork();
    return new SignupTokenService(fork, visitor, new AccessService(fork, visitor), publicUrl);
  };
  r.get('/:secret/validate', async (req, res) => {
    await tokens().validate(req.params.secret);
    res.status(200).end();
  });
  r.post('/:secret/signup', async (req, res) => {
    res.status(201).json(await tokens().signup(req.params.secret, req.body));
  });
  return r;
}
