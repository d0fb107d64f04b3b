// Recast timing driver: builds a solo navmesh exactly as RecastDemo's
// Sample_SoloMesh::handleBuild does (demo defaults), timing each stage.
//
// usage: driver MESH.obj [watershed|monotone] [detail|nodetail] [RUNS]
#include "Recast.h"
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <string>
#include <vector>

typedef std::chrono::steady_clock Clock;

static double ms(Clock::time_point a, Clock::time_point b)
{
	return std::chrono::duration<double, std::milli>(b - a).count();
}

// OBJ loading following RecastDemo's rcMeshLoaderObj (v lines; f lines as fans;
// v/vt/vn allowed; 1-based; negative indices relative to the current count).
static bool loadObj(const char* path, std::vector<float>& verts, std::vector<int>& tris)
{
	FILE* fp = fopen(path, "rb");
	if (!fp) return false;
	char line[4096];
	while (fgets(line, sizeof(line), fp))
	{
		char* p = line;
		while (*p == ' ' || *p == '\t') p++;
		if (p[0] == 'v' && (p[1] == ' ' || p[1] == '\t'))
		{
			float x = 0, y = 0, z = 0;
			sscanf(p + 1, "%f %f %f", &x, &y, &z);
			verts.push_back(x); verts.push_back(y); verts.push_back(z);
		}
		else if (p[0] == 'f' && (p[1] == ' ' || p[1] == '\t'))
		{
			const int nv = (int)(verts.size() / 3);
			std::vector<int> face;
			char* s = p + 1;
			while (*s)
			{
				while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') s++;
				if (!*s) break;
				char* tok = s;
				while (*s && *s != ' ' && *s != '\t' && *s != '\r' && *s != '\n') s++;
				int vi = atoi(tok); // stops at '/'
				face.push_back(vi < 0 ? vi + nv : vi - 1);
			}
			for (size_t i = 2; i < face.size(); ++i)
			{
				const int a = face[0], b = face[i - 1], c = face[i];
				if (a < 0 || a >= nv || b < 0 || b >= nv || c < 0 || c >= nv) continue;
				tris.push_back(a); tris.push_back(b); tris.push_back(c);
			}
		}
	}
	fclose(fp);
	return true;
}

enum { ST_RASTER, ST_FILTERS, ST_COMPACT, ST_ERODE, ST_REGIONS, ST_CONTOURS, ST_POLYMESH, ST_DETAIL, ST_WHOLE, ST_N };
static const char* stageNames[ST_N] = {"rasterize", "filters", "compact", "erode", "regions", "contours", "polymesh", "detail", "whole"};

static double median(std::vector<double> v)
{
	std::sort(v.begin(), v.end());
	const size_t n = v.size();
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int main(int argc, char** argv)
{
	if (argc < 2)
	{
		fprintf(stderr, "usage: %s MESH.obj [watershed|monotone] [detail|nodetail] [RUNS]\n", argv[0]);
		return 2;
	}
	const char* meshPath = argv[1];
	const bool monotone = argc > 2 && strcmp(argv[2], "monotone") == 0;
	const bool detail = !(argc > 3 && strcmp(argv[3], "nodetail") == 0);
	const int runs = argc > 4 ? atoi(argv[4]) : 15;

	std::vector<float> vertsV;
	std::vector<int> trisV;
	if (!loadObj(meshPath, vertsV, trisV))
	{
		fprintf(stderr, "cannot read %s\n", meshPath);
		return 1;
	}
	const float* verts = vertsV.data();
	const int nverts = (int)(vertsV.size() / 3);
	const int* tris = trisV.data();
	const int ntris = (int)(trisV.size() / 3);

	// Demo defaults (Sample::resetCommonSettings).
	const float m_cellSize = 0.3f, m_cellHeight = 0.2f;
	const float m_agentHeight = 2.0f, m_agentRadius = 0.6f, m_agentMaxClimb = 0.9f, m_agentMaxSlope = 45.0f;
	const float m_regionMinSize = 8, m_regionMergeSize = 20;
	const float m_edgeMaxLen = 12.0f, m_edgeMaxError = 1.3f, m_vertsPerPoly = 6.0f;
	const float m_detailSampleDist = 6.0f, m_detailSampleMaxError = 1.0f;

	// Config derivation exactly as Sample_SoloMesh::handleBuild.
	rcConfig m_cfg;
	memset(&m_cfg, 0, sizeof(m_cfg));
	m_cfg.cs = m_cellSize;
	m_cfg.ch = m_cellHeight;
	m_cfg.walkableSlopeAngle = m_agentMaxSlope;
	m_cfg.walkableHeight = (int)ceilf(m_agentHeight / m_cfg.ch);
	m_cfg.walkableClimb = (int)floorf(m_agentMaxClimb / m_cfg.ch);
	m_cfg.walkableRadius = (int)ceilf(m_agentRadius / m_cfg.cs);
	m_cfg.maxEdgeLen = (int)(m_edgeMaxLen / m_cellSize);
	m_cfg.maxSimplificationError = m_edgeMaxError;
	m_cfg.minRegionArea = (int)rcSqr(m_regionMinSize);
	m_cfg.mergeRegionArea = (int)rcSqr(m_regionMergeSize);
	m_cfg.maxVertsPerPoly = (int)m_vertsPerPoly;
	m_cfg.detailSampleDist = m_detailSampleDist < 0.9f ? 0 : m_cellSize * m_detailSampleDist;
	m_cfg.detailSampleMaxError = m_cellHeight * m_detailSampleMaxError;
	rcCalcBounds(verts, nverts, m_cfg.bmin, m_cfg.bmax);
	rcCalcGridSize(m_cfg.bmin, m_cfg.bmax, m_cfg.cs, &m_cfg.width, &m_cfg.height);

	printf("mesh %s: %d verts, %d tris; grid %d x %d; walkableHeight %d climb %d radius %d maxEdgeLen %d; partition %s; detail %s; runs %d\n",
		   meshPath, nverts, ntris, m_cfg.width, m_cfg.height, m_cfg.walkableHeight, m_cfg.walkableClimb,
		   m_cfg.walkableRadius, m_cfg.maxEdgeLen, monotone ? "monotone" : "watershed", detail ? "on" : "off", runs);

	rcContext ctx(false);
	std::vector<double> t[ST_N];
	int npolys = -1, nverts_out = -1, ndtris = -1;

	for (int run = 0; run < runs; ++run)
	{
		double st[ST_N] = {0};
		const Clock::time_point t0 = Clock::now();

		// rasterize (heightfield creation + mark walkable + rasterize)
		Clock::time_point a = Clock::now();
		rcHeightfield* solid = rcAllocHeightfield();
		if (!solid || !rcCreateHeightfield(&ctx, *solid, m_cfg.width, m_cfg.height, m_cfg.bmin, m_cfg.bmax, m_cfg.cs, m_cfg.ch))
		{ fprintf(stderr, "heightfield failed\n"); return 1; }
		unsigned char* triareas = new unsigned char[ntris];
		memset(triareas, 0, ntris * sizeof(unsigned char));
		rcMarkWalkableTriangles(&ctx, m_cfg.walkableSlopeAngle, verts, nverts, tris, ntris, triareas);
		if (!rcRasterizeTriangles(&ctx, verts, nverts, tris, triareas, ntris, *solid, m_cfg.walkableClimb))
		{ fprintf(stderr, "rasterize failed\n"); return 1; }
		delete[] triareas;
		Clock::time_point b = Clock::now();
		st[ST_RASTER] = ms(a, b);

		// filters
		a = Clock::now();
		rcFilterLowHangingWalkableObstacles(&ctx, m_cfg.walkableClimb, *solid);
		rcFilterLedgeSpans(&ctx, m_cfg.walkableHeight, m_cfg.walkableClimb, *solid);
		rcFilterWalkableLowHeightSpans(&ctx, m_cfg.walkableHeight, *solid);
		b = Clock::now();
		st[ST_FILTERS] = ms(a, b);

		// compact
		a = Clock::now();
		rcCompactHeightfield* chf = rcAllocCompactHeightfield();
		if (!chf || !rcBuildCompactHeightfield(&ctx, m_cfg.walkableHeight, m_cfg.walkableClimb, *solid, *chf))
		{ fprintf(stderr, "compact failed\n"); return 1; }
		rcFreeHeightField(solid);
		b = Clock::now();
		st[ST_COMPACT] = ms(a, b);

		// erode
		a = Clock::now();
		if (!rcErodeWalkableArea(&ctx, m_cfg.walkableRadius, *chf))
		{ fprintf(stderr, "erode failed\n"); return 1; }
		b = Clock::now();
		st[ST_ERODE] = ms(a, b);

		// regions
		a = Clock::now();
		if (!monotone)
		{
			if (!rcBuildDistanceField(&ctx, *chf)) { fprintf(stderr, "distance field failed\n"); return 1; }
			if (!rcBuildRegions(&ctx, *chf, 0, m_cfg.minRegionArea, m_cfg.mergeRegionArea))
			{ fprintf(stderr, "regions failed\n"); return 1; }
		}
		else
		{
			if (!rcBuildRegionsMonotone(&ctx, *chf, 0, m_cfg.minRegionArea, m_cfg.mergeRegionArea))
			{ fprintf(stderr, "monotone failed\n"); return 1; }
		}
		b = Clock::now();
		st[ST_REGIONS] = ms(a, b);

		// contours
		a = Clock::now();
		rcContourSet* cset = rcAllocContourSet();
		if (!cset || !rcBuildContours(&ctx, *chf, m_cfg.maxSimplificationError, m_cfg.maxEdgeLen, *cset))
		{ fprintf(stderr, "contours failed\n"); return 1; }
		b = Clock::now();
		st[ST_CONTOURS] = ms(a, b);

		// polymesh
		a = Clock::now();
		rcPolyMesh* pmesh = rcAllocPolyMesh();
		if (!pmesh || !rcBuildPolyMesh(&ctx, *cset, m_cfg.maxVertsPerPoly, *pmesh))
		{ fprintf(stderr, "polymesh failed\n"); return 1; }
		b = Clock::now();
		st[ST_POLYMESH] = ms(a, b);

		// detail
		rcPolyMeshDetail* dmesh = 0;
		if (detail)
		{
			a = Clock::now();
			dmesh = rcAllocPolyMeshDetail();
			if (!dmesh || !rcBuildPolyMeshDetail(&ctx, *pmesh, *chf, m_cfg.detailSampleDist, m_cfg.detailSampleMaxError, *dmesh))
			{ fprintf(stderr, "detail failed\n"); return 1; }
			b = Clock::now();
			st[ST_DETAIL] = ms(a, b);
		}

		npolys = pmesh->npolys;
		nverts_out = pmesh->nverts;
		ndtris = dmesh ? dmesh->ntris : 0;

		rcFreeCompactHeightfield(chf);
		rcFreeContourSet(cset);
		rcFreePolyMesh(pmesh);
		if (dmesh) rcFreePolyMeshDetail(dmesh);
		const Clock::time_point t1 = Clock::now();
		st[ST_WHOLE] = ms(t0, t1);
		for (int s = 0; s < ST_N; ++s) t[s].push_back(st[s]);
	}

	printf("polygons %d, poly verts %d, detail tris %d\n", npolys, nverts_out, ndtris);
	printf("per-stage medians of %d builds (ms):\n", runs);
	for (int s = 0; s < ST_N; ++s)
	{
		if (s == ST_DETAIL && !detail) continue;
		printf("  %-10s %8.3f\n", stageNames[s], median(t[s]));
	}
	printf("  whole min  %8.3f\n", *std::min_element(t[ST_WHOLE].begin(), t[ST_WHOLE].end()));
	return 0;
}
