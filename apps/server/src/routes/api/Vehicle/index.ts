import type { FastifyPluginAsync } from 'fastify';
import referenceRoutes from './reference.ts';
import vehicleRoutes from './vehicles.ts';

/** /api/Vehicle (spec section 7): the member's vehicles and the lists their form picks from. */
const vehicleArea: FastifyPluginAsync = async (app) => {
  await app.register(referenceRoutes);
  await app.register(vehicleRoutes);
};

export default vehicleArea;
