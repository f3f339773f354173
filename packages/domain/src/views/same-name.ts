import { sqlStateOf } from '../shared/data-refusal.ts';
import { DomainError } from '../shared/errors.ts';

/** A second view of the same name (any letter case) for the same user and folder is a 409. */
export async function sameName<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (sqlStateOf(error) === '23505') {
      throw new DomainError('CONFLICT', `You already have a view named “${name}” for this folder`, {
        details: [{ path: 'name', message: 'is already the name of one of your views of this folder' }],
      });
    }
    throw error;
  }
}
